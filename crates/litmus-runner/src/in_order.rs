//! Results that finish out of order, handed on in their input order: what
//! a pool of threads or devices needs to report a campaign's tests in the
//! order given, as soon as each and every one before it is done.

/// The results of `0..n`, held until every one before them is handed on.
///
/// ```
/// use litmus_runner::in_order::InOrder;
/// let mut order = InOrder::new(3);
/// let mut seen = Vec::new();
/// let mut emit = |i: usize, r: &str| { seen.push((i, r.to_string())); true };
/// assert!(order.put(1, "b", &mut emit));
/// assert!(order.put(0, "a", &mut emit));
/// assert!(order.put(2, "c", &mut emit));
/// assert_eq!(seen, [(0, "a".to_string()), (1, "b".to_string()), (2, "c".to_string())]);
/// ```
pub struct InOrder<T> {
    waiting: Vec<Option<T>>,
    due: usize,
}

impl<T> InOrder<T> {
    /// Room for the results of `0..n`.
    pub fn new(n: usize) -> InOrder<T> {
        InOrder {
            waiting: (0..n).map(|_| None).collect(),
            due: 0,
        }
    }

    /// Takes result `i` and hands `emit` every result now due, in order.
    /// False once `emit` returned false (the caller stops): the results
    /// after that one are not handed on.
    pub fn put(&mut self, i: usize, result: T, emit: &mut impl FnMut(usize, T) -> bool) -> bool {
        if let Some(slot) = self.waiting.get_mut(i) {
            *slot = Some(result);
        }
        while let Some(result) = self.waiting.get_mut(self.due).and_then(Option::take) {
            if !emit(self.due, result) {
                return false;
            }
            self.due += 1;
        }
        true
    }
}
