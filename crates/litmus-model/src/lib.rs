//! litmus-model
