//! The random source of the generators, and the shrinking of a failing case.
//!
//! Every generator draws its model from a [`Tape`]. In a normal run the tape
//! is the case's seeded Xoshiro256++ stream itself (its 32-bit draws are the
//! upper halves of 64-bit words, as Xoshiro's own), so the models are
//! exactly those of the seeds. When a case fails, [`shrink`] hands the words
//! that case drew to proptest as a vector of `u64`, and proptest shrinks it
//! the usual way: deleting words, then moving each toward 0. The generators
//! read a smaller word as a smaller choice (`random_range` scales the word
//! into the range), and a word past the end as 0, the first choice of every
//! draw; so the test fails with a small model that still fails.
//!
//! During shrinking the words to replay are set for the current thread
//! ([`REPLAY`]), and `Tape::seeded` replays them instead of its seed: the
//! generators need no other change.

use proptest::collection::{VecValueTree, vec};
use proptest::num::u64::BinarySearch;
use proptest::strategy::{NewTree, Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestError, TestRng, TestRunner};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, SeedableRng, TryRng};
use std::cell::{Cell, RefCell};
use std::convert::Infallible;

thread_local! {
    /// The words to replay on this thread (while shrinking).
    static REPLAY: RefCell<Option<Vec<u64>>> = const { RefCell::new(None) };
    /// The seed of this thread's latest seeded tape and the words it drew.
    static DRAWN: Cell<(u64, usize)> = const { Cell::new((0, 0)) };
}

/// A random source: a seeded stream, or words replayed (then zeros).
pub(crate) struct Tape {
    seeded: Option<Xoshiro256PlusPlus>,
    words: Vec<u64>,
    pos: usize,
    seed: u64,
}

impl Tape {
    /// The stream of `seed`, or, while a case is being shrunk on this
    /// thread, the words proptest is trying.
    pub(crate) fn seeded(seed: u64) -> Tape {
        let replay = REPLAY.with(|r| r.borrow().clone());
        DRAWN.with(|d| d.set((seed, 0)));
        Tape {
            seeded: match replay {
                Some(_) => None,
                None => Some(Xoshiro256PlusPlus::seed_from_u64(seed)),
            },
            words: replay.unwrap_or_default(),
            pos: 0,
            seed,
        }
    }

    fn word(&mut self) -> u64 {
        let w = match &mut self.seeded {
            Some(rng) => rng.next_u64(),
            None => self.words.get(self.pos).copied().unwrap_or(0),
        };
        self.pos += 1;
        let (seed, pos) = (self.seed, self.pos);
        DRAWN.with(|d| d.set((seed, pos)));
        w
    }
}

impl TryRng for Tape {
    type Error = Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok((self.word() >> 32) as u32)
    }
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(self.word())
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        for chunk in dst.chunks_mut(8) {
            let bytes = self.word().to_le_bytes();
            chunk.copy_from_slice(&bytes[..chunk.len()]);
        }
        Ok(())
    }
}

/// The words the latest seeded tape of this thread drew: its seed's stream,
/// as long as it was read.
pub(crate) fn drawn() -> Vec<u64> {
    let (seed, n) = DRAWN.with(Cell::get);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    (0..n).map(|_| rng.next_u64()).collect()
}

/// proptest's strategy for a vector of `u64` whose first tree is `words`:
/// the vector shrinks by deleting elements (down to none) and each element
/// by binary search toward 0.
#[derive(Debug)]
struct Recorded(Vec<u64>);

/// One element of [`Recorded`], handed out in order.
#[derive(Debug)]
struct Next<'a>(&'a [u64], Cell<usize>);

impl Strategy for Next<'_> {
    type Tree = BinarySearch;
    type Value = u64;
    fn new_tree(&self, _: &mut TestRunner) -> NewTree<Self> {
        let i = self.1.get();
        self.1.set(i + 1);
        Ok(BinarySearch::new(self.0.get(i).copied().unwrap_or(0)))
    }
}

impl Strategy for Recorded {
    type Tree = VecValueTree<BinarySearch>;
    type Value = Vec<u64>;
    fn new_tree(&self, runner: &mut TestRunner) -> NewTree<Self> {
        // `vec` draws its length at random in 0..=n; the first tree must be
        // the whole recording, and deletions may go down to none.
        let n = self.0.len();
        loop {
            let tree = vec(Next(&self.0, Cell::new(0)), 0..=n).new_tree(runner)?;
            if tree.current().len() == n {
                return Ok(tree);
            }
        }
    }
}

/// Shrinks a failing case: `words` are the words it drew, `check` runs it
/// (panicking when it fails). Returns the message of the smallest failing
/// case proptest found.
pub(crate) fn shrink(words: Vec<u64>, check: &dyn Fn()) -> String {
    let config = Config {
        cases: 1,
        // Enough for a model of a few hundred draws; bounded so that a
        // failure is reported in minutes at worst.
        max_shrink_iters: 4096,
        max_shrink_time: 300_000,
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner =
        TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha));
    let drawn = words.len();
    let result = runner.run(&Recorded(words), |words| {
        REPLAY.with(|r| *r.borrow_mut() = Some(words));
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(check));
        REPLAY.with(|r| *r.borrow_mut() = None);
        if let Err(e) = outcome {
            std::panic::resume_unwind(e);
        }
        Ok(())
    });
    match result {
        Err(TestError::Fail(why, minimal)) => format!(
            "shrunk by proptest from {drawn} drawn words to {}:\n{why}",
            minimal.len()
        ),
        Err(e) => format!("shrinking stopped: {e}"),
        Ok(()) => "the case passed when replayed (is it deterministic?)".to_string(),
    }
}
