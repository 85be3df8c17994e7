//! Popeye
