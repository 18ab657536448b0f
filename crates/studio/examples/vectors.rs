//! Prints the test-vector block of docs/FAIRNESS.md: cargo run -p studio --example vectors
fn main() {
    print!("{}", studio::vectors::block());
}
