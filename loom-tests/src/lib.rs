//! Loom models of the seed programs (see tests/).
