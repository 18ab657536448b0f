//! The studio's game runtime (ARCHITECTURE §4): provably-fair seeds and single-player
//! rounds (slots, roulette, dice), and the multiplayer crash engine. The maths lives in
//! the pure `studio` crate; every stake and win goes through the casino's provider wallet
//! (`casino::ProviderWallet`) under provider `studio`, the same path third parties use.

pub mod crash;
pub mod history;
pub mod races;
pub mod single;
