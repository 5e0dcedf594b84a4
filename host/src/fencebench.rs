//! GPU fence-cost benchmark driver (being written).
