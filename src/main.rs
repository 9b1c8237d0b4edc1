//! The `ghast` command line. With no subcommand it speaks the UCI dialect
//! on stdin/stdout, as GUI hosts expect (or CECP when the first line is
//! `xboard`).

use clap::{Parser, Subcommand};
use ghast::commands;
use ghast::engine::options::spin_parser;
use ghast::engine::{Limits, Settings};
use ghast::protocol::Uci;
use ghast::registry::{self, DEFAULT_VARIANT};
use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Duration;

/// ghast: an engine for Nimrod Chess, Vyrémorn Chess and The Game of Nemoroth.
///
/// Run without a subcommand to speak the UCI dialect (Fairy-Stockfish's
/// UCI_Variant conventions) on standard input and output.
#[derive(Parser)]
#[command(name = "ghast", version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Speak the UCI dialect on stdin/stdout (the default).
    Uci,
    /// Speak the XBoard/WinBoard protocol (CECP v2, engine-defined
    /// variants) on stdin/stdout.
    ///
    /// Without a subcommand the first line decides: `xboard` selects this
    /// protocol too. Example: xboard -fcp "ghast xboard" -variant nimrod
    Xboard,
    /// Serve the web board on http://127.0.0.1:8077/ (README, "Web board").
    Serve(ghast::web::ServeArgs),
    /// Count the leaves of the legal-move tree, divided by root move.
    ///
    /// Example: ghast perft --variant nimrod --moves e2e4 e7e5 4
    Perft {
        /// Variant name: nimrod, nimrod-corner, dragon-nimrod, dragon-nimrod-corner,
        /// vyremorn, nemoroth.
        #[arg(long, short, default_value = DEFAULT_VARIANT)]
        variant: String,
        /// Start from this position instead of the start position.
        #[arg(long)]
        fen: Option<String>,
        /// Moves to play first, in the variant's move notation.
        #[arg(long, num_args = 1.., value_name = "MOVE")]
        moves: Vec<String>,
        /// Worker threads (root moves are shared out).
        #[arg(long, short, default_value_t = 1)]
        threads: usize,
        /// Depth in plies.
        depth: Option<u32>,
    },
    /// Search a fixed set of positions (positions/bench.txt, compiled in)
    /// with one thread and print the node count and speed.
    ///
    /// The node count is deterministic: it is the behaviour signature of a
    /// build. The last line reads `N nodes X nps`.
    Bench {
        /// Search depth for every position (default: the file's depth=N,
        /// else 11).
        #[arg(long, short)]
        depth: Option<u32>,
        /// Transposition table size in MB.
        #[arg(long, default_value_t = 16, value_parser = spin_parser::<usize>("Hash"))]
        hash: usize,
    },
    /// Play a tournament refereed by the rules library.
    ///
    /// Example: ghast match --variant nimrod --engine 'name=a'
    /// --engine 'name=b option.Threads=1' --games 2 --rounds 10 --tc 1+0.01
    /// --concurrency 2 --pgnout games.pgn --results results.json
    Match(Box<MatchArgs>),
    /// Merge the JSON results of the shards of one match and print the
    /// combined summary.
    Merge {
        /// Results files written by 'ghast match --results'.
        #[arg(required = true)]
        files: Vec<String>,
        /// Write the merged JSON here.
        #[arg(long)]
        results: Option<String>,
    },
    /// Generate balanced openings (random plies, checked by a short search)
    /// for an openings file.
    Openings {
        #[arg(long, short, default_value = DEFAULT_VARIANT)]
        variant: String,
        /// Random plies from the start.
        #[arg(long, default_value_t = 6)]
        plies: u32,
        /// How many openings.
        #[arg(long, default_value_t = 50)]
        count: usize,
        /// Largest |score| in centipawns kept.
        #[arg(long, default_value_t = 100)]
        max_cp: i32,
        /// Depth of the balance search.
        #[arg(long, default_value_t = 8)]
        depth: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Output file (default: standard output).
        #[arg(long)]
        out: Option<String>,
    },
    /// Self-play games for the tuner: quiet positions with the game's
    /// result, appended to FILE as '<fen> | <result> | <eval>' lines
    /// (README, "Tuning"). Resumes: games already in FILE count.
    ///
    /// Example: ghast datagen --variant nimrod --games 2000 --nodes 5000
    /// --threads 2 --out nimrod.data
    Datagen {
        #[arg(long, short, default_value = DEFAULT_VARIANT)]
        variant: String,
        /// Games wanted in FILE (including those already there).
        #[arg(long)]
        games: u64,
        /// Data file (appended to).
        #[arg(long, value_name = "FILE")]
        out: String,
        /// Search depth per move.
        #[arg(long, conflicts_with = "nodes")]
        depth: Option<u32>,
        /// Nodes per move (default 5000 when no depth is given).
        #[arg(long)]
        nodes: Option<u64>,
        /// Games played at once (one search thread each).
        #[arg(long, short, default_value_t = 1)]
        threads: usize,
        /// Random plies of each opening.
        #[arg(long, default_value_t = 8)]
        random_plies: u32,
        /// Positions are kept from this many plies after the opening.
        #[arg(long, default_value_t = 4)]
        min_ply: u32,
        /// A game reaching this many plies is a draw.
        #[arg(long, default_value_t = 300)]
        max_plies: u32,
        /// Game i uses seed S + i.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Hash per game in MB.
        #[arg(long, default_value_t = 8, value_parser = spin_parser::<usize>("Hash"))]
        hash: usize,
    },
    /// Texel tuning of the evaluator's weights on a datagen file; writes a
    /// params file (tuning/README.md) loadable with the EvalFile option.
    ///
    /// Example: ghast tune --variant nimrod --data nimrod.data
    /// --out nimrod.candidate.params --epochs 10 --lr 0.25 --reg 0.001
    Tune {
        #[arg(long, short, default_value = DEFAULT_VARIANT)]
        variant: String,
        /// Data file written by 'ghast datagen'.
        #[arg(long, value_name = "FILE")]
        data: String,
        /// Params file to write.
        #[arg(long, value_name = "FILE")]
        out: String,
        /// Start from this params file instead of the compiled-in weights.
        #[arg(long, value_name = "FILE")]
        init: Option<String>,
        /// Epochs (each: linearise, then Adam steps).
        #[arg(long, default_value_t = 10)]
        epochs: usize,
        /// Adam step size in centipawns.
        #[arg(long, default_value_t = 0.5)]
        lr: f64,
        /// Adam steps per epoch.
        #[arg(long, default_value_t = 100)]
        steps: usize,
        /// Use this sigmoid scale (per centipawn) instead of fitting it.
        #[arg(long)]
        k: Option<f64>,
        /// Use at most this many training positions (spread over the file).
        #[arg(long)]
        max_positions: Option<usize>,
        /// Percentage of the games held out: their loss is printed beside
        /// the training loss, and the weights of the epoch with the lowest
        /// held-out loss are written (early stopping). 0 = none.
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(0..=50))]
        validation: u32,
        /// Leave out games that datagen ended by its ply limit (`max
        /// plies`): unfinished games whose draw says little about their
        /// positions.
        #[arg(long)]
        exclude_unfinished: bool,
        /// L2 pull toward the starting weights: REG x sum of ((w - w0) x c
        /// / 100)^2 is added to the loss, c the weight's RMS coefficient
        /// where it is used (so (w - w0) x c is the typical change of the
        /// evaluation it makes, in cp). Weights the data says little about
        /// stay near their starting values. 0 = none.
        #[arg(long, default_value_t = 0.0, value_parser = parse_reg)]
        reg: f64,
        /// Tune only weights whose name starts with one of these prefixes
        /// (e.g. material. tempo); all by default.
        #[arg(long, num_args = 1..)]
        only: Vec<String>,
        /// Never tune weights whose name starts with one of these. By
        /// default the measured mobility centres (collinear with material
        /// and mobility) and the discrete or divisor weights.
        #[arg(long, num_args = 0.., default_values = ["mobility_center", "king_danger_min_attackers", "phase_total"])]
        freeze: Vec<String>,
        /// Worker threads (rayon); all cores by default.
        #[arg(long, short)]
        threads: Option<usize>,
    },
    /// Tune search parameters by SPSA: game pairs between perturbed
    /// settings of in-process players; prints the tuned values as
    /// `option.` words for `ghast match`.
    ///
    /// Example: ghast spsa --variant nimrod --param rfp_margin:8 --param
    /// lmr_divisor_x100:15 --iterations 2000 --tc 1+0.01 --openings
    /// positions/nimrod.openings --concurrency 2 --out spsa.state
    Spsa(SpsaArgs),
    /// Analyse a position: the board, then each iteration's depth, score
    /// and principal variation, then a summary.
    ///
    /// Example: ghast analyse --variant nimrod --moves e2e4 e7e5 --depth 12
    #[command(alias = "analyze")]
    Analyse {
        /// Variant name.
        #[arg(long, short, default_value = DEFAULT_VARIANT)]
        variant: String,
        /// Start from this position instead of the start position.
        #[arg(long)]
        fen: Option<String>,
        /// Moves to play first, in the variant's move notation.
        #[arg(long, num_args = 1.., value_name = "MOVE")]
        moves: Vec<String>,
        /// Search to this depth.
        #[arg(long, short, conflicts_with = "movetime")]
        depth: Option<u32>,
        /// Search for this many milliseconds (default 5000 without --depth).
        #[arg(long)]
        movetime: Option<u64>,
        /// Show the best K lines.
        #[arg(long, default_value_t = 1, value_parser = spin_parser::<usize>("MultiPV"))]
        multipv: usize,
        /// Search threads.
        #[arg(long, short, default_value_t = 1, value_parser = spin_parser::<usize>("Threads"))]
        threads: usize,
        /// Transposition table size in MB.
        #[arg(long, default_value_t = 64, value_parser = spin_parser::<usize>("Hash"))]
        hash: usize,
    },
}

/// Arguments of `ghast spsa`.
#[derive(clap::Args)]
struct SpsaArgs {
    /// Variant to play.
    #[arg(long, short, default_value = DEFAULT_VARIANT)]
    variant: String,
    /// A tuned parameter: NAME:C_END (from its default) or
    /// NAME=START:C_END; C_END is the last perturbation, in the
    /// parameter's units (at least 1 for a small integer). Repeatable.
    #[arg(long = "param", value_name = "SPEC", required = true)]
    params: Vec<String>,
    /// Game pairs to play.
    #[arg(long, default_value_t = 1000)]
    iterations: u32,
    /// Learning rate at the last pair, a_N / c_N^2 (fishtest's default).
    #[arg(long, default_value_t = 0.002)]
    r_end: f64,
    /// Time control of every game (as `ghast match --tc`).
    #[arg(long, default_value = "1+0.01")]
    tc: String,
    /// An option both players get, NAME=VALUE (e.g. Hash=16). Repeatable.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// Openings file (one FEN or move list per line); default: the start.
    #[arg(long)]
    openings: Option<String>,
    /// Game pairs played at the same time (each plays its two games in
    /// turn).
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Seed of the perturbations and the opening choice.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Milliseconds a player may overstep its clock before it forfeits.
    #[arg(long, default_value_t = 100)]
    timemargin: u64,
    /// State file, rewritten after every pair.
    #[arg(long, value_name = "FILE")]
    out: Option<String>,
    /// Continue the run saved in --out.
    #[arg(long, requires = "out")]
    resume: bool,
    /// No progress lines.
    #[arg(long, short)]
    quiet: bool,
}

/// Arguments of `ghast match`.
#[derive(clap::Args)]
struct MatchArgs {
    /// Variant to play.
    #[arg(long, short, default_value = DEFAULT_VARIANT)]
    variant: String,
    /// A player, as key=value words: name=N (required); cmd=PATH for an
    /// external engine (omit for in-process ghast); arg=X (repeatable);
    /// dir=D; option.NAME=VALUE (repeatable, e.g. option.Hash=64);
    /// tc=/st=/nodes=/depth= to override the match's limit; variant=NAME if
    /// the engine calls the variant differently (Fairy-Stockfish:
    /// nimrodcorner). Give at least two.
    #[arg(long = "engine", value_name = "SPEC", required = true)]
    engines: Vec<String>,
    /// The first player meets each other player (default: round-robin).
    #[arg(long)]
    gauntlet: bool,
    /// Games per encounter and round; pairs share an opening with colours
    /// swapped.
    #[arg(long, default_value_t = 2)]
    games: u32,
    /// Rounds.
    #[arg(long, default_value_t = 1)]
    rounds: u32,
    /// Time control: moves/time+inc or time+inc in seconds (40/60+0.6,
    /// 10+0.1), st=SECONDS per move, nodes=N or depth=N.
    #[arg(long, default_value = "10+0.1")]
    tc: String,
    /// Milliseconds a player may overstep its clock before it forfeits.
    #[arg(long, default_value_t = 100)]
    timemargin: u64,
    /// Seconds to wait for a move under nodes= or depth= limits before the
    /// player is declared hung.
    #[arg(long, default_value_t = 120)]
    move_timeout: u64,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Openings file: one FEN or one move list from the start per line.
    #[arg(long, conflicts_with = "random_openings")]
    openings: Option<String>,
    /// Read the openings file in random order (sequential by default).
    #[arg(long)]
    openings_random: bool,
    /// Generate openings: this many random plies from the start, kept only
    /// when a short search finds them balanced.
    #[arg(long, value_name = "PLIES")]
    random_openings: Option<u32>,
    /// Largest |score| in centipawns a generated opening may have.
    #[arg(long, default_value_t = 150)]
    opening_max_cp: i32,
    /// Depth of the balance search for generated openings.
    #[arg(long, default_value_t = 6)]
    opening_depth: u32,
    /// Seed for every random choice (opening order and generation).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Draw adjudication 'movenumber=M movecount=N score=S', or 'off'.
    #[arg(long)]
    draw: Option<String>,
    /// Resign adjudication 'movecount=N score=S', or 'off'.
    #[arg(long)]
    resign: Option<String>,
    /// Adjudicate a draw after this many plies (default per variant).
    #[arg(long)]
    maxplies: Option<u32>,
    /// SPRT: 'elo0=0 elo1=5 alpha=0.05 beta=0.05'; stops when a bound is
    /// crossed.
    #[arg(long)]
    sprt: Option<String>,
    /// Append the games to this PGN file.
    #[arg(long)]
    pgnout: Option<String>,
    /// Write a JSON summary here.
    #[arg(long)]
    results: Option<String>,
    /// Play only shard I of N ('I/N'); merge the results files with
    /// 'ghast merge'.
    #[arg(long)]
    shard: Option<String>,
    /// Start at this round: the rounds before it are scheduled (their
    /// openings drawn) but not played, so a stopped run continues with the
    /// same openings and the same seed.
    #[arg(long, default_value_t = 1, value_name = "ROUND")]
    first_round: u32,
    /// No progress lines.
    #[arg(long, short)]
    quiet: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => ghast::protocol::run_stdio().map_err(|e| format!("i/o: {e}")),
        Some(Command::Uci) => run_uci(),
        Some(Command::Xboard) => ghast::protocol::XBoard::new(std::io::stdout())
            .run(std::io::stdin().lock())
            .map_err(|e| format!("i/o: {e}")),
        Some(Command::Serve(args)) => ghast::web::serve(&args),
        Some(Command::Bench { depth, hash }) => bench(depth, hash),
        Some(Command::Match(args)) => run_match(&args),
        Some(Command::Spsa(args)) => run_spsa(&args),
        Some(Command::Merge { files, results }) => merge(&files, results.as_deref()),
        Some(Command::Openings {
            variant,
            plies,
            count,
            max_cp,
            depth,
            seed,
            out,
        }) => openings(&variant, plies, count, max_cp, depth, seed, out.as_deref()),
        Some(Command::Datagen {
            variant,
            games,
            out,
            depth,
            nodes,
            threads,
            random_plies,
            min_ply,
            max_plies,
            seed,
            hash,
        }) => {
            let cfg = ghast::tune::datagen::DatagenConfig {
                variant: variant.clone(),
                games,
                out,
                nodes: if depth.is_none() {
                    Some(nodes.unwrap_or(5000))
                } else {
                    None
                },
                depth,
                threads: threads.max(1),
                random_plies,
                seed,
                min_ply,
                max_plies,
                hash_mb: hash,
            };
            registry::get(&variant).and_then(|game| (game.datagen)(&cfg))
        }
        Some(Command::Tune {
            variant,
            data,
            out,
            init,
            epochs,
            lr,
            steps,
            k,
            max_positions,
            validation,
            exclude_unfinished,
            reg,
            only,
            freeze,
            threads,
        }) => {
            if let Some(t) = threads {
                let _ = rayon::ThreadPoolBuilder::new()
                    .num_threads(t.max(1))
                    .build_global();
            }
            let opts = ghast::tune::texel::TuneOptions {
                epochs,
                lr,
                steps,
                k,
                only,
                freeze,
                reg,
            };
            let filter = ghast::tune::texel::DataFilter {
                validation_percent: validation,
                exclude_unfinished,
            };
            registry::get(&variant).and_then(|game| {
                (game.tune)(&data, &out, init.as_deref(), max_positions, filter, &opts).map(|_| ())
            })
        }
        Some(Command::Analyse {
            variant,
            fen,
            moves,
            depth,
            movetime,
            multipv,
            threads,
            hash,
        }) => {
            let limits = Limits {
                depth,
                movetime: if depth.is_none() {
                    Some(movetime.unwrap_or(commands::DEFAULT_ANALYSIS_MS))
                } else {
                    None
                },
                ..Limits::default()
            };
            let mut settings = Settings {
                hash_mb: hash,
                ..Settings::default()
            };
            settings.config.threads = threads;
            settings.config.multipv = multipv;
            settings.config.move_overhead = Duration::ZERO;
            commands::setup(&variant, fen.as_deref(), &moves, settings).and_then(|mut engine| {
                commands::analyse(engine.as_mut(), &limits, &mut std::io::stdout())
            })
        }
        Some(Command::Perft {
            variant,
            fen,
            mut moves,
            threads,
            depth,
        }) => {
            // `--moves a b 4` leaves the depth among the moves; take it back.
            let depth = match depth {
                Some(d) => Some(d),
                None => moves.last().and_then(|m| m.parse().ok()).inspect(|_| {
                    moves.pop();
                }),
            };
            match depth {
                Some(depth) => perft(&variant, fen.as_deref(), &moves, threads, depth),
                None => Err("perft needs a DEPTH (e.g. 'ghast perft --variant nimrod 5')".into()),
            }
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run_uci() -> Result<(), String> {
    Uci::new(std::io::stdout())
        .run(std::io::stdin().lock())
        .map_err(|e| format!("i/o: {e}"))
}

/// Parses `key=value` words into numbers for the given keys.
fn key_values(text: &str, keys: &[&str]) -> Result<Vec<i64>, String> {
    let mut values = vec![None; keys.len()];
    for word in text.split_whitespace() {
        let (k, v) = word
            .split_once('=')
            .ok_or_else(|| format!("'{word}' is not key=value"))?;
        let i = keys
            .iter()
            .position(|&key| key == k)
            .ok_or_else(|| format!("unknown key '{k}' (expected {})", keys.join(", ")))?;
        values[i] = Some(v.parse().map_err(|_| format!("'{v}' is not a number"))?);
    }
    values
        .into_iter()
        .zip(keys)
        .map(|(v, k)| v.ok_or_else(|| format!("missing {k}=")))
        .collect()
}

fn run_spsa(a: &SpsaArgs) -> Result<(), String> {
    use ghast::tune::spsa::{self, SpsaConfig, TunedParam};
    let options = a
        .options
        .iter()
        .map(|o| {
            o.split_once('=')
                .map(|(n, v)| (n.to_string(), v.to_string()))
                .ok_or_else(|| format!("--option '{o}': expected NAME=VALUE"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let openings = match &a.openings {
        Some(path) => ghast::tournament::read_openings(path, &a.variant)?,
        None => vec![ghast::registry::new_session(&a.variant)?.fen()],
    };
    if !(a.r_end > 0.0 && a.r_end.is_finite()) {
        return Err(format!("--r-end {}: must be a positive number", a.r_end));
    }
    let config = SpsaConfig {
        variant: a.variant.clone(),
        params: a
            .params
            .iter()
            .map(|p| TunedParam::parse(p))
            .collect::<Result<_, _>>()?,
        iterations: a.iterations.max(1),
        r_end: a.r_end,
        limit: ghast::tournament::player::Limit::parse(&a.tc).map_err(|e| format!("--tc: {e}"))?,
        options,
        openings,
        concurrency: a.concurrency.max(1),
        seed: a.seed,
        time_margin: Duration::from_millis(a.timemargin),
        adjudication: ghast::tournament::game::Adjudication::default_for(&a.variant)?,
        out: a.out.clone(),
        quiet: a.quiet,
    };
    let resume = match (&config.out, a.resume) {
        (Some(path), true) => {
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("--resume {path}: {e}"))?;
            Some(spsa::parse_state(&config, &text).map_err(|e| format!("--resume {path}: {e}"))?)
        }
        _ => None,
    };
    let state = spsa::run(&config, resume)?;
    println!(
        "pairs {}  plus side +{} ={} -{}",
        state.done, state.wins, state.draws, state.losses
    );
    for (p, v) in config.params.iter().zip(&state.theta) {
        println!("{:<28} {:>8} -> {:>10.2}", p.spec.name, p.start, v);
    }
    println!("{}", spsa::option_words(&config, &state.theta));
    Ok(())
}

fn run_match(a: &MatchArgs) -> Result<(), String> {
    use ghast::tournament::{self, MatchConfig, OpeningSource, game::Adjudication};
    let players = a
        .engines
        .iter()
        .map(|e| tournament::player::PlayerSpec::parse(e))
        .collect::<Result<Vec<_>, _>>()?;
    let mut adjudication = Adjudication::default_for(&a.variant)?;
    if let Some(d) = &a.draw {
        adjudication.draw = if d == "off" {
            None
        } else {
            let v = key_values(d, &["movenumber", "movecount", "score"])
                .map_err(|e| format!("--draw: {e}"))?;
            Some((v[0].max(0) as u32, v[1].max(1) as u32, v[2] as i32))
        };
    }
    if let Some(r) = &a.resign {
        adjudication.resign = if r == "off" {
            None
        } else {
            let v = key_values(r, &["movecount", "score"]).map_err(|e| format!("--resign: {e}"))?;
            Some((v[0].max(1) as u32, v[1] as i32))
        };
    }
    if let Some(m) = a.maxplies {
        adjudication.max_plies = m;
    }
    let shard = match &a.shard {
        None => None,
        Some(s) => {
            let parsed = s
                .split_once('/')
                .and_then(|(i, n)| Some((i.parse::<u32>().ok()?, n.parse::<u32>().ok()?)))
                .filter(|&(i, n)| n >= 1 && (1..=n).contains(&i));
            Some(parsed.ok_or_else(|| format!("--shard '{s}': expected I/N with 1 <= I <= N"))?)
        }
    };
    if a.first_round == 0 || a.first_round > a.rounds.max(1) {
        return Err(format!(
            "--first-round {}: expected 1 to --rounds ({})",
            a.first_round,
            a.rounds.max(1)
        ));
    }
    let openings = match (&a.openings, a.random_openings) {
        (Some(path), _) => OpeningSource::File {
            path: path.clone(),
            random_order: a.openings_random,
        },
        (None, Some(plies)) => OpeningSource::Random {
            plies,
            max_cp: a.opening_max_cp,
            depth: a.opening_depth,
        },
        (None, None) => OpeningSource::Start,
    };
    let config = MatchConfig {
        variant: a.variant.clone(),
        players,
        gauntlet: a.gauntlet,
        games: a.games.max(1),
        rounds: a.rounds.max(1),
        limit: tournament::player::Limit::parse(&a.tc).map_err(|e| format!("--tc: {e}"))?,
        time_margin: Duration::from_millis(a.timemargin),
        move_timeout: Duration::from_secs(a.move_timeout.max(1)),
        concurrency: a.concurrency.max(1),
        openings,
        seed: a.seed,
        adjudication,
        sprt: a
            .sprt
            .as_deref()
            .map(ghast::tournament::stats::Sprt::parse)
            .transpose()?,
        pgn_out: a.pgnout.clone(),
        results_out: a.results.clone(),
        shard,
        first_round: a.first_round,
        quiet: a.quiet,
    };
    let results = tournament::run(&config)?;
    tournament::print_summary(&results, &tournament::title(&config));
    Ok(())
}

fn merge(files: &[String], out: Option<&str>) -> Result<(), String> {
    let merged = ghast::tournament::merge(files)?;
    if let Some(path) = out {
        let text = serde_json::to_string_pretty(&merged).map_err(|e| e.to_string())?;
        std::fs::write(path, text + "\n").map_err(|e| format!("{path}: {e}"))?;
    }
    ghast::tournament::print_summary(
        &merged,
        &format!(
            "{} ({}, merged)",
            merged.players.join(" vs "),
            merged.variant
        ),
    );
    Ok(())
}

fn openings(
    variant: &str,
    plies: u32,
    count: usize,
    max_cp: i32,
    depth: u32,
    seed: u64,
    out: Option<&str>,
) -> Result<(), String> {
    let fens =
        ghast::engine::openings::generate_openings(variant, plies, count, max_cp, depth, seed)?;
    let mut text = format!(
        "# {count} {variant} openings: {plies} random plies, |score| <= {max_cp} cp at depth {depth}, seed {seed}\n"
    );
    for f in &fens {
        text.push_str(f);
        text.push('\n');
    }
    match out {
        Some(path) => std::fs::write(path, text).map_err(|e| format!("{path}: {e}")),
        None => {
            print!("{text}");
            Ok(())
        }
    }
}

fn bench(depth: Option<u32>, hash: usize) -> Result<(), String> {
    let report = commands::bench(depth, hash, &mut std::io::stderr())?;
    let nps = report.nodes as f64 / report.elapsed.as_secs_f64().max(1e-9);
    println!("{} nodes {nps:.0} nps", report.nodes);
    Ok(())
}

fn perft(
    variant: &str,
    fen: Option<&str>,
    moves: &[String],
    threads: usize,
    depth: u32,
) -> Result<(), String> {
    let engine = commands::setup(variant, fen, moves, Settings::default())?;
    let show_progress = std::io::stderr().is_terminal();
    let progress = |done: usize, all: usize, nodes: u64| {
        if show_progress {
            eprint!("\rperft {depth}: {done}/{all} root moves, {nodes} nodes");
            if done == all {
                eprint!("\r\x1b[K");
            }
        }
    };
    let report = commands::perft(engine.as_ref(), depth, threads, &progress)?;
    commands::write_perft(&report, &mut std::io::stdout().lock()).map_err(|e| format!("i/o: {e}"))
}

/// `--reg`: a finite, non-negative number.
fn parse_reg(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(r) if r.is_finite() && r >= 0.0 => Ok(r),
        Ok(_) => Err(format!("'{text}' must be 0 or more")),
        Err(e) => Err(format!("'{text}': {e}")),
    }
}
