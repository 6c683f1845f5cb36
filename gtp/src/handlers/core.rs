//! Protocol-level commands: identity, the command list, quit, and the commands that
//! only acknowledge (`gogui-interrupt`, `kgs-game_over`).

use crate::args::Args;
use crate::commands;
use crate::error::Answer;
use crate::session::{Ctx, Session};

pub(crate) fn protocol_version(_: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    a.end()?;
    Ok("2".into())
}

pub(crate) fn name(_: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    a.end()?;
    Ok(crate::NAME.into())
}

pub(crate) fn version(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    a.end()?;
    Ok(s.options.version.into())
}

pub(crate) fn known_command(_: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    let name = a.word("command name")?;
    a.end()?;
    Ok(commands::lookup(name).is_some().to_string())
}

pub(crate) fn list_commands(_: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    a.end()?;
    Ok(commands::names().collect::<Vec<_>>().join("\n"))
}

pub(crate) fn quit(s: &mut Session, _: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    s.quit = true;
    Ok(String::new())
}

/// Listed so GoGui knows it may send `# interrupt` while the engine thinks.
pub(crate) fn gogui_interrupt(_: &mut Session, _: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    Ok(String::new())
}

/// KGS says the game ended; it may only be adjourned, so nothing is cleared.
pub(crate) fn kgs_game_over(s: &mut Session, _: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    s.diag("tengen: game over (KGS)");
    Ok(String::new())
}
