//! [`Origin`]: the identity an mbarrier token or a pipeline stage carries back to the object it
//! came from, so that a wait or a release on another object panics (PTX ISA §9.7.13.15.17: the
//! state of an arrive "on the same mbarrier object"). Checked on the host and in debug builds
//! on the device (a `trap` there); in a release build for nvptx64 it is zero-sized and checks
//! nothing — the one place that choice is made.

pub(crate) use imp::Origin;

#[cfg(any(debug_assertions, not(target_arch = "nvptx64")))]
mod imp {
    /// The address of the object a value came from.
    #[derive(Clone, Copy, PartialEq, Eq)]
    pub(crate) struct Origin(usize);

    impl Origin {
        /// The origin `p`.
        #[inline(always)]
        pub(crate) fn of<T>(p: *const T) -> Self {
            Origin(p as usize)
        }
        /// Panics with `what` unless the value came from `p`.
        #[inline(always)]
        #[track_caller]
        pub(crate) fn check<T>(self, p: *const T, what: &'static str) {
            assert!(self.0 == p as usize, "{}", what);
        }
    }

    impl core::fmt::Debug for Origin {
        fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            self.0.fmt(f)
        }
    }
}

#[cfg(not(any(debug_assertions, not(target_arch = "nvptx64"))))]
mod imp {
    /// No origin (a release build for nvptx64).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub(crate) struct Origin;

    impl Origin {
        /// No origin.
        #[inline(always)]
        pub(crate) fn of<T>(_: *const T) -> Self {
            Origin
        }
        /// No check.
        #[inline(always)]
        pub(crate) fn check<T>(self, _: *const T, _: &'static str) {}
    }
}
