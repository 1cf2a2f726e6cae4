fn main() { std::process::exit(intent_cli::run()); }
