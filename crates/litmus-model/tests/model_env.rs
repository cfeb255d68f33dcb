//! Choosing the model through `LITMUS_MODEL` (one test: it changes the
//! process environment).

use litmus_model::{model_by_name, model_from_env, MODEL_ENV};

#[test]
fn litmus_model_selects_the_model_and_rejects_unknown_names() {
    std::env::remove_var(MODEL_ENV);
    assert_eq!(model_from_env().unwrap().name(), "ptx");
    std::env::set_var(MODEL_ENV, "ptx-2015");
    assert_eq!(model_from_env().unwrap().name(), "ptx-2015");
    std::env::set_var(MODEL_ENV, "tso");
    let err = model_from_env().unwrap_err().to_string();
    assert_eq!(
        err,
        "unknown model `tso` (from LITMUS_MODEL); the models are: ptx, sc, ptx-2015, ptx-7.5, ptx-async"
    );
    std::env::remove_var(MODEL_ENV);
    assert!(model_by_name("sc").is_ok());
}
