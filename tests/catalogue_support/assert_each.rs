// Each catalogue call becomes a `#[test]` that passes the call's IR to the
// includer's `assert_agree(&Test, &str)`. Pasted with `include!` before
// `modules.rs` by the tests that check every catalogue test one way
// (`outcome_search.rs`, `cat_models_on_catalogue.rs`).

macro_rules! compare_litmus {
    ($(#[doc = $doc:literal])* $name:ident; $($body:tt)*) => {
        #[test]
        fn $name() {
            crate::assert_agree(&library::litmus_ir! { $name; $($body)* }, stringify!($name));
        }
    };
}
pub(crate) use compare_litmus as litmus;

