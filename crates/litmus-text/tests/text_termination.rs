//! The declared termination in the text format: `=> terminates` or
//! `=> may hang` after the condition (and its verdict, if any).

#[test]
fn the_text_format_reads_and_prints_a_declared_termination() {
    let src = "PTX t\n{ f=0; }\n P0@cta 0,gpu 0 ;\n ld.relaxed.gpu r0, f ;\nexists (P0:r0 == 0)";
    for (tail, verdict, terminates) in [
        (" => allowed => terminates", true, Some(true)),
        (" => may hang", false, Some(false)),
        (" => forbidden", true, None),
    ] {
        let test = litmus_text::parse(&format!("{src}{tail}")).unwrap();
        assert_eq!(test.verdict.is_some(), verdict, "{tail}");
        assert_eq!(test.termination.map(|t| t.terminates), terminates, "{tail}");
        let printed = litmus_text::print(&test);
        assert!(printed.trim_end().ends_with(tail.trim()), "{printed}");
        assert_eq!(litmus_text::parse(&printed).unwrap(), test);
    }
}

#[test]
fn the_text_format_says_what_follows_an_arrow() {
    let src = "PTX t\n{ f=0; }\n P0@cta 0,gpu 0 ;\n ld.relaxed.gpu r0, f ;\nexists (P0:r0 == 0)";
    for (tail, expected) in [
        (
            " => hangs",
            "`allowed`, `forbidden`, `terminates` or `may hang` after `=>`",
        ),
        (
            " => allowed => forbidden",
            "`terminates` or `may hang` after `=>`",
        ),
        (" => may stop", "`terminates` or `may hang` after `=>`"),
    ] {
        let err = litmus_text::parse(&format!("{src}{tail}"))
            .unwrap_err()
            .to_string();
        assert!(err.contains(expected), "{tail}: {err}");
        assert!(err.starts_with("5:"), "{tail}: says where: {err}");
    }
}
