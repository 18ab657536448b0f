pub fn placeholder_build_check() {}
