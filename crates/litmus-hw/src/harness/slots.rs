//! Where the slots of a test's global locations lie in their buffers
//! (`LITMUS_LOC_LAYOUT`, [`LocLayout`]): which layout a test gets, the
//! knob words that tell the kernels, and the region a location's initial
//! fill covers.

use litmus_core::ir::Test;
use litmus_ptx::layout::knob;
use litmus_ptx::Layout;

use crate::arrangement::LocLayout;
use crate::knobs::Knobs;

/// The layout the test's slots get: the knobs' one, except that a test
/// keeps its locations apart when
///
/// - it has host threads or host memory: the host threads work out their
///   addresses themselves, as `j·N + perm_j(i)`;
/// - its locations start from different values: the one fill per buffer
///   that sets interleaved slots sets them all to one value (a fill per
///   slot would be one per instance).
pub(super) fn effective(layout: &Layout, test: &Test, k: &Knobs) -> LocLayout {
    let host = layout.has_host_roles() || !layout.host_slots.is_empty();
    let mut inits = layout
        .global_locs
        .iter()
        .map(|&l| test.locations[l].init.value);
    let first = inits.next();
    let one_value = inits.all(|v| Some(v) == first);
    match k.loc_layout {
        LocLayout::Interleaved if !host && one_value => LocLayout::Interleaved,
        _ => LocLayout::Apart,
    }
}

/// Writes the knob words that lay the slots out ([`knob::SLOT_SCALE`],
/// [`knob::LOC_SPAN`]) for `n` instances a launch.
pub(super) fn layout_words(layout: &Layout, test: &Test, k: &Knobs, n: usize, words: &mut [u32]) {
    let (scale, span) = effective(layout, test, k).words(layout.global_locs.len(), n as u32);
    words[knob::SLOT_SCALE] = scale;
    words[knob::LOC_SPAN] = span;
}

/// The words (offset, count) of its buffer that hold global slot `j`'s
/// slots, `span` words a location: its own region when apart; the whole
/// buffer when interleaved, where every location shares the one initial
/// value (see [`effective`]).
pub(super) fn region(laid: LocLayout, locations: usize, j: usize, span: usize) -> (usize, usize) {
    match laid {
        LocLayout::Apart => (j * span, span),
        LocLayout::Interleaved => (0, locations * span),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use litmus_text as text;

    fn layout_of(src: &str) -> (Test, Layout) {
        let test = text::parse(src).unwrap_or_else(|e| panic!("{}", e.render("inline")));
        let layout = Layout::of(&test).unwrap();
        (test, layout)
    }

    const MP: &str = "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, y ;\n st.relaxed.gpu y, 1 | ld.relaxed.gpu r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

    #[test]
    fn interleaved_slots_alternate_and_apart_ones_keep_a_region_each() {
        let (test, layout) = layout_of(MP);
        let mut words = vec![0u32; layout.knob_words()];
        let k = Knobs {
            loc_layout: LocLayout::Interleaved,
            ..Knobs::default()
        };
        assert_eq!(effective(&layout, &test, &k), LocLayout::Interleaved);
        layout_words(&layout, &test, &k, 1024, &mut words);
        assert_eq!((words[knob::SLOT_SCALE], words[knob::LOC_SPAN]), (2, 1));
        assert_eq!(region(LocLayout::Interleaved, 2, 1, 4096), (0, 8192));
        layout_words(&layout, &test, &Knobs::default(), 1024, &mut words);
        assert_eq!((words[knob::SLOT_SCALE], words[knob::LOC_SPAN]), (1, 1024));
        assert_eq!(region(LocLayout::Apart, 2, 1, 4096), (4096, 4096));
    }

    #[test]
    fn locations_that_start_apart_in_value_stay_apart_in_memory() {
        let (test, layout) = layout_of(&MP.replace("y=0", "y=5"));
        let k = Knobs {
            loc_layout: LocLayout::Interleaved,
            ..Knobs::default()
        };
        assert_eq!(effective(&layout, &test, &k), LocLayout::Apart);
    }
}
