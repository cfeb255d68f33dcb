//! The compiled cat model the evaluator runs: nodes over earlier nodes,
//! what the compiler knows of each (its type, the bases it uses, whether
//! it only grows), the `let rec` groups and the named checks. Made by
//! [`super::compile`], read by the evaluator and the batch.

use std::collections::HashSet;

use super::algebra::Ty;
use super::base::Base;
use super::parser::CheckKind;

/// Index of a node in [`Program::nodes`].
pub(crate) type NodeId = usize;

/// An operation of the compiled program; operands are earlier nodes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Node {
    Base(Base),
    Universe,
    Empty,
    Id,
    Union(NodeId, NodeId),
    Inter(NodeId, NodeId),
    Diff(NodeId, NodeId),
    Seq(NodeId, NodeId),
    Product(NodeId, NodeId),
    Inverse(NodeId),
    Plus(NodeId),
    Star(NodeId),
    Opt(NodeId),
    Compl(NodeId),
    Bracket(NodeId),
    Domain(NodeId),
    Range(NodeId),
    /// Variable `index` of `let rec` group `group`.
    RecVar {
        group: usize,
        index: usize,
    },
}

/// What the compiler knows of a node.
#[derive(Clone, Debug)]
pub(crate) struct Info {
    pub ty: Ty,
    /// The bases it depends on ([`Base::bit`]).
    pub uses: u64,
    /// Whether it only grows when the dynamic bases grow.
    pub monotone: bool,
    /// The rec groups it depends on, as a bit mask (groups past 63 share
    /// the last bit, which only makes re-evaluation more eager).
    pub groups: u64,
    /// The name it was first bound to, for witness labels.
    pub name: Option<&'static str>,
    /// The longest chain of operands below it (a rec variable counts its
    /// bodies): evaluation recurses that deep.
    pub height: usize,
}

/// A `let rec ... and ...` group: its variables' bodies.
#[derive(Clone, Debug)]
pub(crate) struct RecGroup {
    pub bodies: Vec<NodeId>,
    /// The variables' nodes, in binding order.
    pub vars: Vec<NodeId>,
}

/// A named check.
#[derive(Clone, Debug)]
pub(crate) struct Check {
    pub kind: CheckKind,
    pub negate: bool,
    pub flag: bool,
    pub node: NodeId,
    /// The `as` name, or a name made from the kind and position.
    pub name: &'static str,
}

/// A compiled cat model.
#[derive(Clone, Debug, Default)]
pub(crate) struct Program {
    pub nodes: Vec<Node>,
    pub info: Vec<Info>,
    pub groups: Vec<RecGroup>,
    pub checks: Vec<Check>,
    /// Per rec group, the nodes whose [`Info::groups`] has its bit: what
    /// the evaluator forgets between iterates of the group.
    pub dependents: Vec<Vec<NodeId>>,
}

/// The `&'static str` for `s`: check names and labels end up in
/// [`crate::model::Violation`]s and witness edges, which hold static
/// strings (the built-in models' names are literals). Each distinct string
/// is leaked once per process, however many models are compiled (the fuzz
/// example compiles 100,000).
pub(crate) fn intern(s: &str) -> &'static str {
    use std::sync::Mutex;
    static INTERNED: Mutex<Option<HashSet<&'static str>>> = Mutex::new(None);
    let mut set = INTERNED.lock().unwrap_or_else(|p| p.into_inner());
    let set = set.get_or_insert_with(HashSet::new);
    if let Some(&known) = set.get(s) {
        return known;
    }
    let leaked: &'static str = Box::leak(s.to_string().into_boxed_str());
    set.insert(leaked);
    leaked
}

/// The operands of a node.
pub(crate) fn node_operands(node: &Node) -> Vec<NodeId> {
    match *node {
        Node::Union(a, b)
        | Node::Inter(a, b)
        | Node::Diff(a, b)
        | Node::Seq(a, b)
        | Node::Product(a, b) => vec![a, b],
        Node::Inverse(a)
        | Node::Plus(a)
        | Node::Star(a)
        | Node::Opt(a)
        | Node::Compl(a)
        | Node::Bracket(a)
        | Node::Domain(a)
        | Node::Range(a) => vec![a],
        Node::Base(_) | Node::Universe | Node::Empty | Node::Id | Node::RecVar { .. } => vec![],
    }
}

/// The bit of rec group `g` in [`Info::groups`].
pub(crate) fn group_bit(g: usize) -> u64 {
    1 << g.min(63)
}
