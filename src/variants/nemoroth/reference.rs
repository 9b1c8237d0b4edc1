//! A deliberately simple second implementation of the rulebook, for tests
//! only. It shares nothing with the engine but NFEN parsing (a position is
//! converted from the engine's board once): pieces are structs with stable
//! ids in `Vec`s per square, every rule is written out as the rulebook
//! states it, the petrification pass scans the whole board after every
//! landing and every push, screams try *every* permutation of the groups,
//! responses follow pieces by id, and positions are compared by their NFEN
//! text, which this module prints itself.

use super::board::{self as eng, Nemoroth};

#[derive(Clone, Debug, PartialEq)]
pub struct P {
    pub id: u32,
    /// 0 Alabaster, 1 Obsidian, 2 neutral (Mummy).
    pub owner: u8,
    pub kind: char,
    pub statue: bool,
    pub dig: bool,
}

#[derive(Clone, Debug)]
pub struct R {
    pub sq: Vec<Vec<P>>,
    pub ichor: [u8; 64],
    pub side: u8,
    pub ply: u32,
    pub next_id: u32,
}

fn xy(s: usize) -> (i32, i32) {
    ((s % 8) as i32, (s / 8) as i32)
}
fn at(x: i32, y: i32) -> Option<usize> {
    if (0..8).contains(&x) && (0..8).contains(&y) {
        Some((y * 8 + x) as usize)
    } else {
        None
    }
}
fn d2(a: usize, b: usize) -> i32 {
    let (ax, ay) = xy(a);
    let (bx, by) = xy(b);
    (ax - bx).pow(2) + (ay - by).pow(2)
}
fn cheb(a: usize, b: usize) -> i32 {
    let (ax, ay) = xy(a);
    let (bx, by) = xy(b);
    (ax - bx).abs().max((ay - by).abs())
}
fn name(s: usize) -> String {
    let (x, y) = xy(s);
    format!("{}{}", (b'a' + x as u8) as char, y + 1)
}
fn fwd(owner: u8) -> i32 {
    if owner == 0 { 1 } else { -1 }
}
fn last(owner: u8) -> i32 {
    if owner == 0 { 7 } else { 0 }
}
const KORDER: &str = "BGLAWHZ";

impl P {
    fn mobile(&self) -> bool {
        self.owner < 2 && !self.statue
    }
    fn sort_key(&self) -> (u8, bool, usize) {
        (self.owner, self.statue, KORDER.find(self.kind).unwrap_or(9))
    }
    fn tok(&self) -> String {
        if self.kind == 'M' {
            return "M".into();
        }
        let mut s = String::new();
        if self.statue {
            s.push('p');
        }
        if self.dig {
            s.push('d');
        }
        s.push(if self.owner == 0 {
            self.kind
        } else {
            self.kind.to_ascii_lowercase()
        });
        s
    }
    fn same(&self, o: &P) -> bool {
        self.owner == o.owner && self.kind == o.kind && self.statue == o.statue && self.dig == o.dig
    }
}

/// A reference move: the text and the resulting position.
pub struct RMove {
    pub text: String,
    pub child: R,
}

#[derive(Clone, Copy)]
enum Elem {
    Mo(u32),
    Ich(u32),
    Fl(u32, u32, i32),
}

impl R {
    pub fn from_engine(p: &Nemoroth) -> R {
        let mut r = R {
            sq: vec![Vec::new(); 64],
            ichor: [0; 64],
            side: p.side.index() as u8,
            ply: p.ply,
            next_id: 1,
        };
        for s in 0..64 {
            for &c in p.pieces(s) {
                let piece = if c == eng::MUMMY {
                    P {
                        id: 0,
                        owner: 2,
                        kind: 'M',
                        statue: false,
                        dig: false,
                    }
                } else {
                    P {
                        id: 0,
                        owner: eng::owner(c) as u8,
                        kind: KORDER.as_bytes()[eng::kind(c) as usize] as char,
                        statue: eng::is_statue(c),
                        dig: eng::is_digesting(c),
                    }
                };
                r.add(s, piece);
            }
            r.ichor[s] = p.ichor[s];
        }
        r
    }

    fn add(&mut self, s: usize, mut p: P) {
        p.id = self.next_id;
        self.next_id += 1;
        self.sq[s].push(p);
    }

    /// The NFEN, printed by this module.
    pub fn nfen(&self) -> String {
        let mut rows = Vec::new();
        for y in (0..8).rev() {
            let mut row = String::new();
            let mut empty = 0;
            for x in 0..8 {
                let s = at(x, y).unwrap();
                let mut ps = self.sq[s].clone();
                if ps.is_empty() {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    row += &empty.to_string();
                    empty = 0;
                }
                ps.sort_by_key(|p| p.sort_key());
                if ps.len() == 1 {
                    row += &ps[0].tok();
                } else {
                    row.push('(');
                    for p in &ps {
                        row += &p.tok();
                    }
                    row.push(')');
                }
            }
            if empty > 0 {
                row += &empty.to_string();
            }
            rows.push(row);
        }
        let mut ich: Vec<usize> = (0..64).filter(|&s| self.ichor[s] > 0).collect();
        ich.sort_by_key(|&s| name(s));
        let ichor = if ich.is_empty() {
            "-".to_string()
        } else {
            ich.iter()
                .map(|&s| format!("{}={}", name(s), self.ichor[s]))
                .collect::<Vec<_>>()
                .join(",")
        };
        format!(
            "{} {} {} {}",
            rows.join("/"),
            if self.side == 0 { "a" } else { "o" },
            ichor,
            self.ply
        )
    }

    /// The configuration: the board field of the NFEN.
    pub fn config(&self) -> String {
        self.nfen().split(' ').next().unwrap().to_string()
    }

    fn find(&self, id: u32) -> Option<(usize, &P)> {
        for s in 0..64 {
            for p in &self.sq[s] {
                if p.id == id {
                    return Some((s, p));
                }
            }
        }
        None
    }

    fn seen(&self) -> [bool; 64] {
        let mut seen = [false; 64];
        for s in 0..64 {
            for p in &self.sq[s] {
                if p.kind == 'B' {
                    let (x, y) = xy(s);
                    let f = fwd(p.owner);
                    for (dx, dy) in [(1, 2 * f), (-1, 2 * f), (1, -f), (-1, -f)] {
                        if let Some(t) = at(x + dx, y + dy) {
                            seen[t] = true;
                        }
                    }
                }
            }
        }
        seen
    }

    /// The petrification pass over the whole board.
    fn petrify(&mut self) {
        let seen = self.seen();
        for (s, &is_seen) in seen.iter().enumerate() {
            if is_seen {
                for p in self.sq[s].iter_mut() {
                    if p.mobile() && p.kind != 'Z' {
                        p.statue = true;
                    }
                }
            }
        }
    }

    fn merge_mummies(&mut self, s: usize) {
        let mut seen_m = false;
        self.sq[s].retain(|p| {
            if p.kind == 'M' {
                if seen_m {
                    return false;
                }
                seen_m = true;
            }
            true
        });
    }

    fn end_ply(&mut self, deposited: &[usize]) {
        for s in 0..64 {
            if self.ichor[s] > 0 && !deposited.contains(&s) {
                self.ichor[s] -= 1;
            }
        }
        self.side = 1 - self.side;
        self.ply += 1;
    }

    /// R2 for a path, with the exemptions given as Ghast ids.
    fn r2(&self, path: &[usize], mover: u32, exempt: &[u32]) -> bool {
        for g in 0..64 {
            for p in &self.sq[g] {
                if p.kind != 'G' || p.id == mover || exempt.contains(&p.id) {
                    continue;
                }
                for w in path.windows(2) {
                    if cheb(w[1], g) <= 2 && d2(w[1], g) <= d2(w[0], g) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Voluntary move of piece `id` from `o` to `t` (3.10), path for Fiends.
    fn do_move(&mut self, o: usize, t: usize, id: u32, path: &[usize]) {
        let idx = self.sq[o].iter().position(|p| p.id == id).unwrap();
        let mut p = self.sq[o].remove(idx);
        let mut dep = Vec::new();
        if p.kind == 'W' {
            for &s in &path[..path.len() - 1] {
                self.ichor[s] = 10;
                dep.push(s);
            }
            if self.sq[o].iter().any(|q| q.kind == 'Z') {
                self.sq[o].retain(|q| q.kind != 'Z');
                self.ichor[o] = 0;
            }
        }
        if p.kind == 'L' && p.dig {
            let m = P {
                id: 0,
                owner: 2,
                kind: 'M',
                statue: false,
                dig: false,
            };
            self.add(o, m);
            p.dig = false;
        }
        match p.kind {
            'Z' => {
                self.sq[t].clear();
                if self.ichor[t] > 0 {
                    self.ichor[t] = 0;
                } else {
                    self.sq[t].push(p);
                }
            }
            'L' => {
                if !self.sq[t].is_empty() {
                    self.sq[t].clear();
                    p.dig = true;
                }
                self.sq[t].push(p);
            }
            _ => {
                if p.kind == 'H' && xy(t).1 == last(p.owner) {
                    p.kind = 'Z';
                }
                self.sq[t].push(p);
            }
        }
        self.petrify();
        self.end_ply(&dep);
    }

    fn push(&mut self, g: usize, s: usize, dep: &mut Vec<usize>) {
        let mut group = std::mem::take(&mut self.sq[s]);
        if group.is_empty() {
            return;
        }
        if group.iter().any(|p| p.kind == 'W') {
            self.ichor[s] = 10;
            dep.push(s);
        }
        let (gx, gy) = xy(g);
        let (sx, sy) = xy(s);
        let Some(t) = at(2 * sx - gx, 2 * sy - gy) else {
            return;
        };
        for p in group.iter_mut() {
            if p.kind == 'H' && xy(t).1 == last(p.owner) {
                p.kind = 'Z';
                p.statue = false;
            }
        }
        if self.ichor[t] > 0 && group.iter().any(|p| p.kind == 'Z') {
            group.retain(|p| p.kind != 'Z');
            self.ichor[t] = 0;
        }
        if group.len() == 1 && group[0].kind == 'L' {
            let mut l = group.pop().unwrap();
            if !self.sq[t].is_empty() {
                self.sq[t].clear();
                l.dig = true;
            }
            self.sq[t].push(l);
        } else if let Some(i) = self.sq[t].iter().position(|p| p.kind == 'L') {
            if !group.is_empty() {
                self.sq[t][i].dig = true;
            }
        } else {
            self.sq[t].extend(group);
        }
        self.merge_mummies(t);
        self.petrify();
    }

    fn scream(&mut self, g: usize, order: &[usize]) {
        let mut dep = Vec::new();
        for &s in order {
            self.push(g, s, &mut dep);
        }
        self.end_ply(&dep);
    }

    fn elements(&self) -> Vec<Elem> {
        let mut v = Vec::new();
        for s in 0..64 {
            for p in &self.sq[s] {
                if !p.mobile() || p.owner != self.side {
                    continue;
                }
                if self.sq[s].len() >= 2 {
                    v.push(Elem::Mo(p.id));
                }
                if p.kind != 'Z' && self.ichor[s] >= 2 {
                    v.push(Elem::Ich(p.id));
                }
                if p.kind != 'Z' {
                    for e in 0..64 {
                        for q in &self.sq[e] {
                            if q.kind == 'G' && q.owner == 1 - self.side && cheb(s, e) <= 2 {
                                v.push(Elem::Fl(p.id, q.id, d2(s, e)));
                            }
                        }
                    }
                }
            }
        }
        v
    }

    fn responds(&self, e: Elem) -> bool {
        let id = match e {
            Elem::Mo(i) | Elem::Ich(i) | Elem::Fl(i, _, _) => i,
        };
        let Some((s, p)) = self.find(id) else {
            return true;
        };
        if p.statue {
            return true;
        }
        match e {
            Elem::Mo(_) => self.sq[s].len() == 1,
            Elem::Ich(_) => self.ichor[s] == 0,
            Elem::Fl(_, gid, d0) => {
                if p.kind == 'Z' {
                    return true;
                }
                match self.find(gid) {
                    None => true,
                    Some((gs, _)) => d2(s, gs) > d0,
                }
            }
        }
    }

    /// Every legal move with its result; `history` holds configurations.
    pub fn legal(&self, history: &[String]) -> Vec<RMove> {
        let elems = self.elements();
        let seen = self.seen();
        let me = self.side;
        let mut cands: Vec<(String, R)> = Vec::new();
        for o in 0..64 {
            let mut done: Vec<P> = Vec::new();
            let kinds: Vec<char> = {
                let mut k: Vec<char> = self.sq[o]
                    .iter()
                    .filter(|p| p.mobile() && p.owner == me)
                    .map(|p| p.kind)
                    .collect();
                k.sort();
                k.dedup();
                k
            };
            for p in self.sq[o].clone() {
                if !p.mobile() || p.owner != me || done.iter().any(|d| d.same(&p)) {
                    continue;
                }
                done.push(p.clone());
                let (x, y) = xy(o);
                let f = fwd(me);
                let suffix = if kinds.len() >= 2 {
                    p.kind.to_string()
                } else {
                    String::new()
                };
                let empty_ok = |t: usize| self.sq[t].is_empty() && self.ichor[t] == 0;
                let mut dests: Vec<(usize, Vec<usize>)> = Vec::new();
                let vecs: Vec<(i32, i32)> = match p.kind {
                    'H' => vec![(0, f), (1, f), (-1, f), (1, 0), (-1, 0)],
                    'Z' | 'L' => vec![
                        (1, 0),
                        (-1, 0),
                        (0, 1),
                        (0, -1),
                        (1, 1),
                        (1, -1),
                        (-1, 1),
                        (-1, -1),
                    ],
                    'A' => vec![
                        (1, 1),
                        (1, -1),
                        (-1, 1),
                        (-1, -1),
                        (2, 0),
                        (-2, 0),
                        (0, 2),
                        (0, -2),
                    ],
                    'G' => vec![(2, 2), (2, -2), (-2, 2), (-2, -2)],
                    'B' => vec![(1, 2 * f), (-1, 2 * f), (1, -f), (-1, -f)],
                    _ => vec![],
                };
                for (dx, dy) in vecs {
                    let Some(t) = at(x + dx, y + dy) else {
                        continue;
                    };
                    let ok = match p.kind {
                        'Z' => !self.sq[t].iter().any(|q| q.kind == 'L'),
                        'L' => self.ichor[t] == 0 && self.sq[t].iter().all(|q| q.mobile()),
                        _ => empty_ok(t),
                    };
                    if ok {
                        dests.push((t, vec![o, t]));
                    }
                }
                if p.kind == 'W' {
                    for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                        let mut path = vec![o];
                        let (mut cx, mut cy) = (x, y);
                        loop {
                            cx += dx;
                            cy += dy;
                            let Some(t) = at(cx, cy) else { break };
                            if !empty_ok(t) {
                                break;
                            }
                            // Intermediate squares (all but the destination) unseen.
                            if path[1..].iter().any(|&q| seen[q]) {
                                break;
                            }
                            path.push(t);
                            dests.push((t, path.clone()));
                        }
                    }
                }
                for (t, path) in dests {
                    if p.kind != 'Z' {
                        let mut exempt = Vec::new();
                        if p.kind == 'L' {
                            for q in &self.sq[t] {
                                if q.kind == 'G' && q.mobile() {
                                    exempt.push(q.id);
                                }
                            }
                        }
                        if p.kind == 'H' && xy(t).1 == last(me) {
                            for g in 0..64 {
                                for q in &self.sq[g] {
                                    if q.kind == 'G' && q.owner == 1 - me && cheb(o, g) <= 2 {
                                        exempt.push(q.id);
                                    }
                                }
                            }
                        }
                        if !self.r2(&path, p.id, &exempt) {
                            continue;
                        }
                    }
                    let mut c = self.clone();
                    c.do_move(o, t, p.id, &path);
                    cands.push((format!("{}{}{}", name(o), name(t), suffix), c));
                }
                if p.kind == 'A' {
                    let nbrs: Vec<usize> = self.neighbours(o);
                    if !nbrs.is_empty() {
                        let mut results: Vec<(Vec<usize>, R)> = Vec::new();
                        let mut perm = nbrs.clone();
                        permutations(&mut perm, 0, &mut |ord| {
                            let mut c = self.clone();
                            c.scream(o, ord);
                            let key = c.nfen();
                            if let Some(e) = results.iter_mut().find(|e| e.1.nfen() == key) {
                                let a: Vec<String> = ord.iter().map(|&s| name(s)).collect();
                                let b: Vec<String> = e.0.iter().map(|&s| name(s)).collect();
                                if a < b {
                                    e.0 = ord.to_vec();
                                }
                            } else {
                                results.push((ord.to_vec(), c));
                            }
                        });
                        for (ord, c) in results {
                            let text = format!(
                                "{}@{}",
                                name(o),
                                ord.iter().map(|&s| name(s)).collect::<String>()
                            );
                            cands.push((text, c));
                        }
                    }
                }
            }
        }
        let cur = self.config();
        cands
            .into_iter()
            .filter(|(_, c)| elems.is_empty() || elems.iter().any(|&e| c.responds(e)))
            .filter(|(_, c)| {
                let k = c.config();
                k != cur && !history.contains(&k)
            })
            .map(|(text, child)| RMove { text, child })
            .collect()
    }

    fn neighbours(&self, g: usize) -> Vec<usize> {
        let (x, y) = xy(g);
        let mut v = Vec::new();
        for dx in -1..=1 {
            for dy in -1..=1 {
                if (dx, dy) == (0, 0) {
                    continue;
                }
                if let Some(s) = at(x + dx, y + dy)
                    && !self.sq[s].is_empty()
                {
                    v.push(s);
                }
            }
        }
        v
    }
}

fn permutations(a: &mut Vec<usize>, k: usize, f: &mut dyn FnMut(&[usize])) {
    if k == a.len() {
        f(a);
        return;
    }
    for i in k..a.len() {
        a.swap(k, i);
        permutations(a, k + 1, f);
        a.swap(k, i);
    }
}
