//! A knob as one row: its name, its variable, what it accepts, its
//! default, whether the search tunes it, its help line, and how it is read
//! from the environment, written back as an assignment and carried to the
//! worker. Everything that lists the knobs is made from the rows
//! (`Knobs::from_vars`, `Knobs::env_assignments`, the wire to the worker,
//! `Knobs::tunable`, `Knobs::help`, and the check of the docs' table), so
//! that a knob added as a row is found by each of them with no other edit.

use std::sync::Arc;

use crate::GpuError;

/// Looks a variable up; `None` where it is unset or empty.
pub type Lookup<'a> = &'a dyn Fn(&str) -> Option<String>;

type Read<T> = Arc<dyn Fn(&mut T, Lookup<'_>) -> Result<(), GpuError> + Send + Sync>;
type Write<T> = Arc<dyn Fn(&T, &T) -> Option<(&'static str, String)> + Send + Sync>;
type Put<T> = Arc<dyn Fn(&T, &mut Vec<u8>) + Send + Sync>;
type Get<T> = Arc<dyn Fn(&mut T, &mut &[u8]) -> Option<()> + Send + Sync>;

/// One knob of a set of knobs `T` (the [`crate::Knobs`], or the
/// [`crate::Environment`] inside them).
pub struct Knob<T> {
    /// The knob's name: its field's, as the knobs line prints it.
    pub name: &'static str,
    /// Its variable; `None` for a knob the run sets and the environment
    /// does not (the histogram's size), which still crosses to the worker.
    pub var: Option<&'static str>,
    /// What the variable accepts: its type and range.
    pub accepts: &'static str,
    /// Its default, as the docs' table writes it.
    pub default: &'static str,
    /// Whether the search draws it, and so a tuning entry may set it.
    pub tuned: bool,
    /// One line for `--help`.
    pub help: &'static str,
    read: Read<T>,
    write: Write<T>,
    put: Put<T>,
    get: Get<T>,
}

impl<T> Clone for Knob<T> {
    fn clone(&self) -> Knob<T> {
        Knob {
            read: self.read.clone(),
            write: self.write.clone(),
            put: self.put.clone(),
            get: self.get.clone(),
            ..*self
        }
    }
}

/// What a row says of itself, apart from how it reads and writes.
#[derive(Clone, Copy, Debug)]
pub struct About {
    /// See [`Knob::name`].
    pub name: &'static str,
    /// See [`Knob::var`].
    pub var: Option<&'static str>,
    /// See [`Knob::accepts`].
    pub accepts: &'static str,
    /// See [`Knob::default`].
    pub default: &'static str,
    /// See [`Knob::tuned`].
    pub tuned: bool,
    /// See [`Knob::help`].
    pub help: &'static str,
}

impl<T: 'static> Knob<T> {
    /// A row from what it says of itself and its four functions: `read`
    /// sets the knob from the variables (leaving it where they do not
    /// name it), `write` gives the assignment that reproduces it where it
    /// differs from the default (the second argument), `put` and `get`
    /// carry it to the worker whole.
    pub fn new(
        about: About,
        read: impl Fn(&mut T, Lookup<'_>) -> Result<(), GpuError> + Send + Sync + 'static,
        write: impl Fn(&T, &T) -> Option<(&'static str, String)> + Send + Sync + 'static,
        put: impl Fn(&T, &mut Vec<u8>) + Send + Sync + 'static,
        get: impl Fn(&mut T, &mut &[u8]) -> Option<()> + Send + Sync + 'static,
    ) -> Knob<T> {
        let About {
            name,
            var,
            accepts,
            default,
            tuned,
            help,
        } = about;
        Knob {
            name,
            var,
            accepts,
            default,
            tuned,
            help,
            read: Arc::new(read),
            write: Arc::new(write),
            put: Arc::new(put),
            get: Arc::new(get),
        }
    }

    /// This row over a larger set of knobs `U` that holds a `T` (the
    /// environment's rows inside the knobs' table).
    pub fn lift<U: 'static>(&self, part: fn(&U) -> &T, part_mut: fn(&mut U) -> &mut T) -> Knob<U> {
        let (read, write, put, get) = (
            self.read.clone(),
            self.write.clone(),
            self.put.clone(),
            self.get.clone(),
        );
        Knob {
            name: self.name,
            var: self.var,
            accepts: self.accepts,
            default: self.default,
            tuned: self.tuned,
            help: self.help,
            read: Arc::new(move |u, var| read(part_mut(u), var)),
            write: Arc::new(move |u, d| write(part(u), part(d))),
            put: Arc::new(move |u, w| put(part(u), w)),
            get: Arc::new(move |u, r| get(part_mut(u), r)),
        }
    }
}

/// Sets `t` from the variables every row names; the first bad value is
/// the error. Empty values count as unset.
pub fn read<T>(
    rows: &[Knob<T>],
    t: &mut T,
    lookup: &dyn Fn(&str) -> Option<String>,
) -> Result<(), GpuError> {
    let var = |name: &str| lookup(name).filter(|v| !v.trim().is_empty());
    for row in rows {
        (row.read)(t, &var)?;
    }
    Ok(())
}

/// The assignments that reproduce `t`: each row's where it differs from
/// `default` (a few rows write theirs always), in the rows' order.
pub fn assignments<T>(rows: &[Knob<T>], t: &T, default: &T) -> Vec<(&'static str, String)> {
    rows.iter()
        .filter_map(|row| (row.write)(t, default))
        .collect()
}

/// The variables a tuning entry may set: the tuned rows'.
pub fn tunable<T>(rows: &[Knob<T>]) -> Vec<&'static str> {
    rows.iter()
        .filter(|row| row.tuned)
        .filter_map(|row| row.var)
        .collect()
}

/// One line per variable: the variable, what it accepts, its default,
/// whether the search tunes it, its help line.
pub fn help<T>(rows: &[Knob<T>]) -> String {
    let width = rows
        .iter()
        .filter_map(|row| row.var)
        .map(str::len)
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for row in rows {
        let Some(var) = row.var else { continue };
        let tuned = if row.tuned { "; tuned" } else { "" };
        out.push_str(&format!(
            "  {var:width$}  {}: {}; default {}{tuned}\n",
            row.help, row.accepts, row.default
        ));
    }
    out
}

/// Writes every row of `t` for the worker, whole (defaults included).
pub(crate) fn put<T>(rows: &[Knob<T>], t: &T, w: &mut Vec<u8>) {
    for row in rows {
        (row.put)(t, w);
    }
}

/// Reads what [`put`] wrote, over `t`.
pub(crate) fn get<T>(rows: &[Knob<T>], t: &mut T, r: &mut &[u8]) -> Option<()> {
    for row in rows {
        (row.get)(t, r)?;
    }
    Some(())
}

/// A row whose knob is one field, read by `parse` from its variable's
/// value, written by `show` where it differs from the default, and carried
/// to the worker by the field's own `Wire` encoding:
///
/// `knob!(Set, field.path, About { .. }, parse, show)`
macro_rules! knob {
    ($set:ty, $($field:ident).+, $about:expr, $parse:expr, $show:expr) => {{
        let about: $crate::knobs::table::About = $about;
        let var = about.var.expect("a field's knob has a variable");
        $crate::knobs::table::Knob::<$set>::new(
            about,
            move |k: &mut $set, vars: $crate::knobs::table::Lookup<'_>| {
                if let Some(v) = vars(var) {
                    k.$($field).+ = ($parse)(&v)?;
                }
                Ok(())
            },
            move |k: &$set, d: &$set| {
                (k.$($field).+ != d.$($field).+).then(|| (var, ($show)(&k.$($field).+)))
            },
            |k: &$set, w: &mut Vec<u8>| $crate::wire::Wire::put(&k.$($field).+, w),
            |k: &mut $set, r: &mut &[u8]| {
                k.$($field).+ = $crate::wire::Wire::get(r)?;
                Some(())
            },
        )
    }};
}
pub(crate) use knob;

#[cfg(test)]
mod tests;
