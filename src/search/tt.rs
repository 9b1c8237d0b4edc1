//! The shared transposition table: lock-free, safe under racing writes.
//!
//! Each entry is two atomic words, `check ^ data` and `data` (the
//! "lockless hashing" scheme), where `check` is the key's upper 48 bits
//! with the static evaluation in the low 16: a reader accepts an entry
//! only if the stored word, xored with the stored `data`, gives back the
//! upper bits of its own key. A write torn between two threads fails that
//! test unless the two writes differ only in the move's low 16 bits, which
//! then garble only the evaluation, a heuristic. The move in an entry is
//! still only a hint: the search plays it only if it is in the legal list.
//!
//! ```text
//! data: bits  0..32  move (game-defined encoding, 0 = none)
//!       bits 32..48  score (i16, mate scores relative to this node)
//!       bits 48..56  depth (u8)
//!       bits 56..58  bound (0 none, 1 upper, 2 lower, 3 exact)
//!       bits 58..63  generation (5 bits) for replacement
//!       bit  63      whether the position is or was on a principal
//!                    variation (kept in the reductions)
//! check: bits 0..16  static evaluation (i16; i16::MIN = none)
//!       bits 16..64  the key's bits 16..64
//! ```
//!
//! Buckets of four entries (64 bytes, one cache line); replacement prefers
//! the same key, then an empty slot, then the shallowest or oldest entry.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    None = 0,
    Upper = 1,
    Lower = 2,
    Exact = 3,
}

#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub mv: u32,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
    /// The position's static evaluation before any correction, if the
    /// storing search had one (not in check) and it fits in 16 bits.
    pub eval: Option<i32>,
    /// Whether the position is or was on a principal variation.
    pub pv: bool,
}

/// The key bits an entry keeps; the rest of its check word is the
/// evaluation.
const KEY_BITS: u64 = !0xffff;
/// The evaluation field's "none".
const NO_EVAL: i16 = i16::MIN;
/// Generations are counted modulo this.
const GENERATIONS: u8 = 32;
const GENERATION_SHIFT: u32 = 58;
const PV_BIT: u64 = 1 << 63;

fn generation_of(data: u64) -> i32 {
    ((data >> GENERATION_SHIFT) & (GENERATIONS - 1) as u64) as i32
}

fn check_word(key: u64, eval: Option<i32>) -> u64 {
    let eval = eval
        .and_then(|e| i16::try_from(e).ok())
        .filter(|&e| e != NO_EVAL)
        .unwrap_or(NO_EVAL);
    (key & KEY_BITS) | eval as u16 as u64
}

fn eval_of(check: u64) -> Option<i32> {
    let eval = check as u16 as i16;
    (eval != NO_EVAL).then_some(eval as i32)
}

struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

const BUCKET: usize = 4;

/// Four slots on one cache line: aligned so that a probe touches one line
/// (the allocator alone aligns to 16 bytes, which splits most buckets
/// across two lines).
#[repr(C, align(64))]
struct Bucket {
    slots: [Slot; BUCKET],
}

/// What a search result says besides its move and score.
#[derive(Clone, Copy, Debug)]
pub struct Stored {
    pub depth: i32,
    pub bound: Bound,
    pub eval: Option<i32>,
    pub pv: bool,
}

pub struct TranspositionTable {
    table: Buckets,
    generation: AtomicU8,
}

/// Tables of at least this size are aligned to it, the huge-page size of
/// x86-64 Linux, and the kernel is asked to back them with huge pages: a
/// probe lands anywhere in the table, and with 4 KB pages most probes
/// also missed the address-translation cache.
const HUGE_PAGE: usize = 2 << 20;

/// The table's memory: zeroed buckets with the alignment they were
/// allocated with (a `Vec` would free them with the bucket's alignment).
struct Buckets {
    ptr: std::ptr::NonNull<Bucket>,
    len: usize,
    layout: std::alloc::Layout,
}

// Safety: a bucket holds only atomics, so sharing and sending the
// buffer is as safe as sharing a `[Bucket]`; `Buckets` owns its memory.
unsafe impl Send for Buckets {}
// Safety: as above.
unsafe impl Sync for Buckets {}

impl Buckets {
    /// `len` zeroed buckets (at least one), or `None` if the memory is not
    /// there.
    fn zeroed(len: usize) -> Option<Self> {
        let len = len.max(1);
        let size = len.checked_mul(std::mem::size_of::<Bucket>())?;
        let align = if size >= HUGE_PAGE {
            HUGE_PAGE
        } else {
            std::mem::align_of::<Bucket>()
        };
        let layout = std::alloc::Layout::from_size_align(size, align).ok()?;
        // Safety: the layout's size is nonzero (at least one bucket).
        let ptr = std::ptr::NonNull::new(unsafe { std::alloc::alloc(layout) })?;
        advise_huge_pages(ptr.as_ptr(), size);
        // Safety: `ptr` is valid for `size` bytes, just allocated; zeroing
        // after the advice lets the first touch fault in huge pages. All
        // zeros is a valid (empty) bucket: atomic zeros.
        unsafe { std::ptr::write_bytes(ptr.as_ptr(), 0, size) };
        Some(Buckets {
            ptr: ptr.cast(),
            len,
            layout,
        })
    }
}

impl std::ops::Deref for Buckets {
    type Target = [Bucket];

    fn deref(&self) -> &[Bucket] {
        // Safety: `ptr` holds `len` initialised buckets for as long as
        // `self` lives.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Buckets {
    fn drop(&mut self) {
        // Safety: allocated in `zeroed` with this layout, freed once.
        unsafe { std::alloc::dealloc(self.ptr.as_ptr().cast(), self.layout) }
    }
}

/// Asks Linux for transparent huge pages over `[ptr, ptr + size)` (a hint:
/// where the system has them off, or elsewhere, nothing changes).
#[cfg(target_os = "linux")]
fn advise_huge_pages(ptr: *mut u8, size: usize) {
    const MADV_HUGEPAGE: std::ffi::c_int = 14;
    unsafe extern "C" {
        fn madvise(
            addr: *mut std::ffi::c_void,
            len: usize,
            advice: std::ffi::c_int,
        ) -> std::ffi::c_int;
    }
    if size >= HUGE_PAGE {
        // Safety: the range is one live allocation, aligned to a huge page;
        // the advice changes no contents, and a refusal is harmless.
        unsafe { madvise(ptr.cast(), size, MADV_HUGEPAGE) };
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_ptr: *mut u8, _size: usize) {}

fn pack(mv: u32, score: i32, result: &Stored, generation: u8) -> u64 {
    mv as u64
        | ((score as i16 as u16) as u64) << 32
        | (result.depth.clamp(0, 255) as u64) << 48
        | (result.bound as u64) << 56
        | ((generation % GENERATIONS) as u64) << GENERATION_SHIFT
        | if result.pv { PV_BIT } else { 0 }
}

fn unpack(data: u64, check: u64) -> Entry {
    Entry {
        eval: eval_of(check),
        mv: data as u32,
        score: (data >> 32) as u16 as i16 as i32,
        depth: ((data >> 48) & 0xff) as i32,
        bound: match (data >> 56) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => Bound::None,
        },
        pv: data & PV_BIT != 0,
    }
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> Self {
        Self::try_new(mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`TranspositionTable::new`], with an allocation that fails (too
    /// large for the machine) reported instead of aborting.
    pub fn try_new(mb: usize) -> Result<Self, String> {
        let too_large = || format!("cannot allocate a {mb} MB hash table");
        let bytes = mb.max(1).checked_mul(1024 * 1024).ok_or_else(too_large)?;
        let table = Buckets::zeroed(bytes / std::mem::size_of::<Bucket>()).ok_or_else(too_large)?;
        Ok(TranspositionTable {
            table,
            generation: AtomicU8::new(0),
        })
    }

    /// The size in megabytes, as given to [`TranspositionTable::try_new`].
    pub fn megabytes(&self) -> usize {
        (self.table.len() * std::mem::size_of::<Bucket>()) >> 20
    }

    pub fn clear(&self) {
        for s in self.table.iter().flat_map(|b| &b.slots) {
            s.check.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Called once per search so old entries are replaced first.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &[Slot; BUCKET] {
        // Multiply-shift maps the key onto the buckets without a modulo.
        let index = ((key as u128 * self.table.len() as u128) >> 64) as usize;
        &self.table[index].slots
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        for slot in self.bucket(key) {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed) ^ data;
            if data != 0 && check & KEY_BITS == key & KEY_BITS {
                return Some(unpack(data, check));
            }
        }
        None
    }

    /// Stores a search result; `eval` is the position's uncorrected static
    /// evaluation, if the search had one.
    pub fn store(&self, key: u64, mv: u32, score: i32, result: Stored) {
        let Stored {
            depth, bound, eval, ..
        } = result;
        let generation = self.generation.load(Ordering::Relaxed) % GENERATIONS;
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, slot) in bucket.iter().enumerate() {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed) ^ data;
            let same_key = data != 0 && check & KEY_BITS == key & KEY_BITS;
            if data == 0 || same_key {
                victim = i;
                if same_key {
                    // Keep the old move and evaluation when the new result
                    // has none.
                    let old = unpack(data, check);
                    let mv = if mv == 0 { old.mv } else { mv };
                    if bound != Bound::Exact && depth + 2 < old.depth {
                        return;
                    }
                    let d = pack(mv, score, &result, generation);
                    let c = check_word(key, eval.or(old.eval));
                    slot.data.store(d, Ordering::Relaxed);
                    slot.check.store(c ^ d, Ordering::Relaxed);
                    return;
                }
                break;
            }
            let age = (generation as i32 - generation_of(data)).rem_euclid(GENERATIONS as i32);
            let worth = ((data >> 48) & 0xff) as i32 - 4 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        let d = pack(mv, score, &result, generation);
        bucket[victim].data.store(d, Ordering::Relaxed);
        bucket[victim]
            .check
            .store(check_word(key, eval) ^ d, Ordering::Relaxed);
    }

    /// Permille of a sample of slots used by the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = (self.generation.load(Ordering::Relaxed) % GENERATIONS) as i32;
        let sample_buckets = self.table.len().min(1000);
        let sample = sample_buckets * BUCKET;
        let used = self.table[..sample_buckets]
            .iter()
            .flat_map(|b| &b.slots)
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
                d != 0 && generation_of(d) == generation
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe_round_trip() {
        let tt = TranspositionTable::new(1);
        let key = 0xdead_beef_0123_4567;
        let stored = Stored {
            depth: 17,
            bound: Bound::Exact,
            eval: Some(-321),
            pv: true,
        };
        tt.store(key, 1234, -29_990, stored);
        let e = tt.probe(key).unwrap();
        assert_eq!(
            (e.mv, e.score, e.depth, e.bound, e.eval, e.pv),
            (1234, -29_990, 17, Bound::Exact, Some(-321), true)
        );
        assert!(tt.probe(key ^ 1 << 16).is_none());
        // A result without an evaluation keeps the one stored.
        let deeper = Stored {
            depth: 18,
            eval: None,
            ..stored
        };
        tt.store(key, 1234, 5, deeper);
        assert_eq!(tt.probe(key).unwrap().eval, Some(-321));
        // A result without a move (a fail-low node) keeps the move stored.
        let fail_low = Stored {
            depth: 18,
            bound: Bound::Upper,
            eval: None,
            pv: false,
        };
        tt.store(key, 0, -40, fail_low);
        let e = tt.probe(key).unwrap();
        assert_eq!(
            (e.mv, e.score, e.bound, e.pv),
            (1234, -40, Bound::Upper, false)
        );
        // Generations wrap without disturbing the other fields.
        for _ in 0..GENERATIONS {
            tt.new_search();
            tt.store(key, 7, 3, stored);
            let e = tt.probe(key).unwrap();
            assert_eq!((e.mv, e.score, e.depth, e.pv), (7, 3, 17, true));
        }
        // Evaluations that do not fit are not stored.
        let other = key ^ 1 << 40;
        for eval in [None, Some(40_000), Some(i16::MIN as i32)] {
            tt.store(other, 0, 0, Stored { eval, ..stored });
            assert_eq!(tt.probe(other).unwrap().eval, None, "{eval:?}");
        }
    }

    #[test]
    fn tables_are_zeroed_and_aligned_to_their_pages() {
        for (mb, align) in [(1, 64), (2, HUGE_PAGE), (5, HUGE_PAGE)] {
            let tt = TranspositionTable::new(mb);
            assert_eq!(tt.megabytes(), mb);
            assert_eq!(tt.table.as_ptr() as usize % align, 0, "{mb} MB");
            assert!(tt.table.iter().flat_map(|b| &b.slots).all(|s| {
                s.data.load(Ordering::Relaxed) == 0 && s.check.load(Ordering::Relaxed) == 0
            }));
            assert_eq!(tt.hashfull(), 0);
        }
    }

    #[test]
    fn racing_writers_never_corrupt() {
        let tt = TranspositionTable::new(1);
        std::thread::scope(|s| {
            for t in 0..2u64 {
                let tt = &tt;
                s.spawn(move || {
                    for i in 0..200_000u64 {
                        let key = (i % 64).wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
                        // The stored move is a function of the key.
                        let stored = Stored {
                            depth: 5,
                            bound: Bound::Lower,
                            eval: Some(t as i32),
                            pv: t == 1,
                        };
                        tt.store(key, (key >> 40) as u32, (t as i32) * 7, stored);
                        if let Some(e) = tt.probe(key) {
                            assert_eq!(e.mv, (key >> 40) as u32);
                        }
                    }
                });
            }
        });
    }
}
