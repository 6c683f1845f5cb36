//! Bot-versus-bot matches.
