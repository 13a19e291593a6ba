//! Items worked out on a pool's threads and handed over in order, as a stream.
//!
//! Each thread of the pool takes the next item as soon as it has finished one, so that no
//! thread waits for another until the very last item; the caller takes the results in the
//! items' order, a group at a time, while the threads go on. The threads run at most a bounded
//! number of items ahead of what the caller has taken, a bound that follows how much the
//! results weigh, so that the memory held stays within [`Bounds::held_bytes`].

use std::collections::VecDeque;
use std::io;
use std::ops::ControlFlow;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

/// How far the threads may run ahead of the caller.
#[derive(Clone, Copy, Debug)]
pub(super) struct Bounds {
    /// The most items worked out but not yet taken, results waiting included.
    pub most_ahead: usize,
    /// About the most bytes the results not yet taken hold, as `weigh` counts them.
    pub held_bytes: usize,
    /// How many results ready in order make a group to hand over (a group holds all those
    /// ready, more where a late result completes a longer run).
    pub group: usize,
}

/// Works out `work(item)` for each of `items` on `pool`'s threads and hands the results to
/// `take` in the items' order, in groups. Stops where `take` breaks or fails, once the items
/// being worked on are done.
pub(super) fn ordered<T: Sync, R: Send>(
    pool: &rayon::ThreadPool,
    items: &[T],
    bounds: Bounds,
    work: impl Fn(&T) -> R + Sync,
    weigh: impl Fn(&R) -> usize,
    mut take: impl FnMut(Vec<R>) -> io::Result<ControlFlow<()>>,
) -> io::Result<ControlFlow<()>> {
    let threads = pool.current_num_threads().max(1);
    let order = InOrder::new(bounds, threads, items.len());
    let shared = Shared {
        state: Mutex::new(State { next: 0, stopped: false, order, groups: VecDeque::new() }),
        claimable: Condvar::new(),
        grouped: Condvar::new(),
    };
    pool.in_place_scope(|scope| {
        for _ in 0..threads {
            let (shared, work) = (&shared, &work);
            scope.spawn(move |_| {
                // A thread that panics stops the others and wakes the caller; the scope then
                // passes the panic on.
                let stop_on_panic = StopOnDrop(shared);
                let mut index = shared.claim();
                while let Some(claimed) = index {
                    let result = work(&items[claimed]);
                    index = shared.hand_over(claimed, result);
                }
                std::mem::forget(stop_on_panic);
            });
        }
        // However the caller ends (a break, an error, a panic), the threads stop at their next
        // claim.
        let _stop = StopOnDrop(&shared);
        while let Some(group) = shared.next_group() {
            let weight = group.iter().map(&weigh).sum();
            shared.taken(group.len(), weight);
            if take(group)?.is_break() {
                return Ok(ControlFlow::Break(()));
            }
        }
        Ok(ControlFlow::Continue(()))
    })
}

/// What the threads and the caller share: the next item to claim, how far the threads may go,
/// and the results waiting.
struct Shared<R> {
    state: Mutex<State<R>>,
    /// Signalled when more items may be claimed, or none any more.
    claimable: Condvar,
    /// Signalled when a group of results is ready, or none will be.
    grouped: Condvar,
}

struct State<R> {
    /// The next item to claim.
    next: usize,
    stopped: bool,
    order: InOrder<R>,
    /// The groups ready for the caller, in order.
    groups: VecDeque<Vec<R>>,
}

impl<R> State<R> {
    /// The next item to claim, if one may be claimed now (`Err` when none ever will).
    fn try_claim(&mut self) -> Result<Option<usize>, ()> {
        if self.stopped || self.next >= self.order.items {
            return Err(());
        }
        if self.next >= self.order.limit() {
            return Ok(None);
        }
        self.next += 1;
        Ok(Some(self.next - 1))
    }
}

impl<R> Shared<R> {
    fn lock(&self) -> MutexGuard<'_, State<R>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The next item to work on, once the limit lets it be claimed; `None` at the end or once
    /// stopped.
    fn claim(&self) -> Option<usize> {
        self.claim_from(self.lock())
    }

    /// [`Shared::claim`], the state locked already.
    fn claim_from(&self, mut state: MutexGuard<'_, State<R>>) -> Option<usize> {
        loop {
            match state.try_claim() {
                Err(()) => return None,
                Ok(Some(index)) => return Some(index),
                Ok(None) => state = self.claimable.wait(state).unwrap_or_else(PoisonError::into_inner),
            }
        }
    }

    /// Puts the result of item `index` in its place, waking the caller where it completes a
    /// group; gives the next item to work on, as [`Shared::claim`] does.
    fn hand_over(&self, index: usize, result: R) -> Option<usize> {
        let mut state = self.lock();
        if let Some(group) = state.order.place(index, result) {
            state.groups.push_back(group);
            self.grouped.notify_one();
        }
        self.claim_from(state)
    }

    /// The next group of results, in order; `None` once all were handed over.
    fn next_group(&self) -> Option<Vec<R>> {
        let mut state = self.lock();
        loop {
            if let Some(group) = state.groups.pop_front() {
                return Some(group);
            }
            if state.order.all_taken() || state.stopped {
                return None;
            }
            state = self.grouped.wait(state).unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Counts a group as taken, letting the threads claim further.
    fn taken(&self, count: usize, weight: usize) {
        self.lock().order.taken(count, weight);
        self.claimable.notify_all();
    }

    /// Ends the claims, and the caller's wait for results.
    fn stop(&self) {
        self.lock().stopped = true;
        self.claimable.notify_all();
        self.grouped.notify_all();
    }
}

/// Stops the work where it is dropped: at the caller's end, and where a thread panics.
struct StopOnDrop<'s, R>(&'s Shared<R>);

impl<R> Drop for StopOnDrop<'_, R> {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// The results that came back, put in order, and how far ahead the threads may run.
struct InOrder<R> {
    bounds: Bounds,
    /// How many items there are.
    items: usize,
    /// How many results were put in groups.
    grouped: usize,
    /// The results after the last one put in a group, by index (`None` where still worked on).
    waiting: VecDeque<Option<R>>,
    /// How many were taken.
    taken: usize,
    /// What the taken results weighed in all.
    weight: usize,
    /// How many items the threads may run ahead of the caller now.
    ahead: usize,
}

impl<R> InOrder<R> {
    fn new(bounds: Bounds, threads: usize, items: usize) -> InOrder<R> {
        // A few items a thread at first, until their weight is known.
        let ahead = (2 * threads).clamp(2, bounds.most_ahead.max(2));
        InOrder { bounds, items, grouped: 0, waiting: VecDeque::new(), taken: 0, weight: 0, ahead }
    }

    /// The items below this may be claimed: those taken and those the threads may run ahead.
    fn limit(&self) -> usize {
        self.taken + self.ahead
    }

    /// Whether every result was put in a group and taken.
    fn all_taken(&self) -> bool {
        self.taken == self.items
    }

    /// Puts the result of item `index` in its place; gives the results ready to be taken in
    /// order (after those given before), when they make a group or end the items.
    fn place(&mut self, index: usize, result: R) -> Option<Vec<R>> {
        let slot = index - self.grouped;
        if self.waiting.len() <= slot {
            self.waiting.resize_with(slot + 1, || None);
        }
        self.waiting[slot] = Some(result);
        let ready = self.waiting.iter().take_while(|result| result.is_some()).count();
        let group = self.bounds.group.min(self.ahead / 2).max(1);
        if ready < group && self.grouped + ready < self.items {
            return None;
        }
        self.grouped += ready;
        Some(self.waiting.drain(..ready).map(|result| result.expect("counted ready")).collect())
    }

    /// Counts a group of `count` results weighing `weight` as taken; gives how many items the
    /// threads may now have claimed: twice as many ahead as before while the results stay
    /// light, fewer where they weigh more than the bound.
    fn taken(&mut self, count: usize, weight: usize) -> usize {
        self.taken += count;
        self.weight += weight;
        let fitting = self.taken.saturating_mul(self.bounds.held_bytes) / self.weight.max(1);
        self.ahead = fitting.min(2 * self.ahead).clamp(2, self.bounds.most_ahead.max(2));
        self.limit()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(threads: usize) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap()
    }

    const BOUNDS: Bounds = Bounds { most_ahead: 8, held_bytes: 1 << 20, group: 3 };

    #[test]
    fn results_come_in_order_in_groups_within_the_bound() {
        for threads in [1, 2, 4] {
            let items: Vec<usize> = (0..1000).collect();
            let taken = Mutex::new(0usize);
            let mut seen = Vec::new();
            let outcome = ordered(
                &pool(threads),
                &items,
                BOUNDS,
                |&item| {
                    // No item is worked on further ahead than the bound allows (the caller
                    // counts a group, of at most that many, once it has it).
                    let taken = *taken.lock().unwrap();
                    assert!(item < taken + 2 * BOUNDS.most_ahead, "{item} with {taken} taken");
                    item * 2
                },
                |_| 1,
                |group| {
                    assert!(!group.is_empty() && group.len() <= BOUNDS.most_ahead);
                    *taken.lock().unwrap() += group.len();
                    seen.extend(group);
                    Ok(ControlFlow::Continue(()))
                },
            );
            assert!(outcome.unwrap().is_continue());
            assert_eq!(seen, (0..1000).map(|item| item * 2).collect::<Vec<_>>());
        }
    }

    #[test]
    fn a_break_or_an_error_stops_the_threads() {
        let items: Vec<usize> = (0..10_000).collect();
        let worked = std::sync::atomic::AtomicUsize::new(0);
        let work = |&item: &usize| {
            worked.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            item
        };
        let outcome = ordered(&pool(2), &items, BOUNDS, work, |_| 1, |_| Ok(ControlFlow::Break(())));
        assert!(outcome.unwrap().is_break());
        assert!(worked.load(std::sync::atomic::Ordering::Relaxed) < 100);
        let failed = ordered(&pool(2), &items, BOUNDS, |&item| item, |_| 1, |_| Err(io::Error::other("full")));
        assert_eq!(failed.unwrap_err().to_string(), "full");
    }

    #[test]
    fn the_threads_run_further_ahead_while_results_stay_light() {
        let bounds = Bounds { most_ahead: 64, held_bytes: 100, group: 8 };
        let mut order = InOrder::<usize>::new(bounds, 2, 100);
        assert_eq!(order.ahead, 4);
        // Light results: twice as far ahead each time, up to the most.
        assert_eq!(order.taken(2, 2), 2 + 8);
        assert_eq!(order.taken(8, 8), 10 + 16);
        // Results of 10 bytes each against 100: ten ahead.
        let mut order = InOrder::<usize>::new(bounds, 2, 100);
        assert_eq!(order.taken(4, 40), 4 + 8);
        assert_eq!(order.taken(8, 80), 12 + 10);
        // Heavier than the bound: two ahead still, so that the threads go on.
        assert_eq!(order.taken(1, 1000), 13 + 2);
    }

    #[test]
    fn results_are_handed_over_once_they_make_a_group() {
        let bounds = Bounds { most_ahead: 64, held_bytes: 100, group: 3 };
        let mut order = InOrder::new(bounds, 2, 6);
        assert_eq!(order.place(1, 'b'), None);
        assert_eq!(order.place(0, 'a'), Some(vec!['a', 'b']));
        order.taken(2, 2);
        assert_eq!(order.place(3, 'd'), None);
        assert_eq!(order.place(2, 'c'), None);
        assert_eq!(order.place(4, 'e'), Some(vec!['c', 'd', 'e']));
        order.taken(3, 3);
        // The last items make a group of their own.
        assert_eq!(order.place(5, 'f'), Some(vec!['f']));
    }

    #[test]
    #[should_panic(expected = "item 50")]
    fn a_panic_while_working_is_passed_on() {
        let items: Vec<usize> = (0..1000).collect();
        let work = |&item: &usize| {
            assert!(item != 50, "item {item}");
            item
        };
        let _ = ordered(&pool(2), &items, BOUNDS, work, |_| 1, |_| Ok(ControlFlow::Continue(())));
    }

    #[test]
    fn no_items_nothing_taken() {
        let outcome = ordered(&pool(2), &[] as &[usize], BOUNDS, |&item| item, |_| 1, |_| panic!("nothing to take"));
        assert!(outcome.unwrap().is_continue());
    }
}
