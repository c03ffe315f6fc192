// The empty Rust program the hook's start-up is compared with. Built by
// benches/hook_latency.rs with the same optimisation settings.
fn main() {}
