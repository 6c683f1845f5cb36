//! The one command table: dispatch, `list_commands` and `known_command` all read it.

use crate::args::Args;
use crate::error::Answer;
use crate::handlers::{
    analyze, board, bots, core, gogui, handicap, katago, life, play, scoring, search, settings,
    sgf, time,
};
use crate::session::{Ctx, Session};

/// A command's implementation: decode the arguments, act, return the answer text.
pub(crate) type Handler = fn(&mut Session, &mut Args<'_>, &mut Ctx<'_>) -> Answer;

/// One entry of the table.
pub(crate) struct Command {
    /// The name on the wire (case-sensitive, as GNU Go treats it).
    pub name: &'static str,
    /// What it runs.
    pub run: Handler,
}

macro_rules! table {
    ($($name:literal => $run:expr,)*) => {
        &[$(Command { name: $name, run: $run },)*]
    };
}

/// Every command, in the order `list_commands` prints them.
static COMMANDS: &[Command] = table! {
    "protocol_version" => core::protocol_version,
    "name" => core::name,
    "version" => core::version,
    "known_command" => core::known_command,
    "list_commands" => core::list_commands,
    "quit" => core::quit,
    "boardsize" => board::boardsize,
    "clear_board" => board::clear_board,
    "komi" => board::komi,
    "play" => board::play,
    "genmove" => play::genmove,
    "undo" => board::undo,
    "fixed_handicap" => handicap::fixed_handicap,
    "place_free_handicap" => handicap::place_free_handicap,
    "set_free_handicap" => handicap::set_free_handicap,
    "time_settings" => time::time_settings,
    "time_left" => time::time_left,
    "final_score" => scoring::final_score,
    "final_status_list" => scoring::final_status_list,
    "loadsgf" => sgf::loadsgf,
    "printsgf" => sgf::printsgf,
    "reg_genmove" => play::reg_genmove,
    "showboard" => board::showboard,
    "is_legal" => board::is_legal,
    "list_stones" => board::list_stones,
    "kgs-genmove_cleanup" => play::kgs_genmove_cleanup,
    "kgs-time_settings" => time::kgs_time_settings,
    "kgs-rules" => board::kgs_rules,
    "kgs-game_over" => core::kgs_game_over,
    "cgos-genmove_analyze" => bots::cgos_genmove_analyze,
    "cgos-opponent_name" => bots::cgos_opponent_name,
    "cgos-opponent_rating" => bots::cgos_opponent_rating,
    "cgos-gameover" => bots::cgos_gameover,
    "lz-analyze" => analyze::lz_analyze,
    "kata-analyze" => analyze::kata_analyze,
    "lz-genmove_analyze" => analyze::lz_genmove_analyze,
    "kata-genmove_analyze" => analyze::kata_genmove_analyze,
    "kata-search" => search::kata_search,
    "kata-search_cancellable" => search::kata_search_cancellable,
    "kata-search_analyze" => search::kata_search_analyze,
    "kata-search_analyze_cancellable" => search::kata_search_analyze_cancellable,
    "gogui-analyze_commands" => gogui::analyze_commands,
    "gogui-interrupt" => core::gogui_interrupt,
    "tengen-ownership" => gogui::ownership,
    "tengen-ownership_dboard" => gogui::ownership_dboard,
    "tengen-gfx_ownership" => gogui::gfx_ownership,
    "tengen-gfx_visits" => gogui::gfx_visits,
    "tengen-gfx_pv" => gogui::gfx_pv,
    "tengen-winrate" => gogui::winrate,
    "tengen-unconditional_status" => life::unconditional_status,
    "tengen-gfx_pass_alive" => life::gfx_pass_alive,
    "tengen-params" => settings::tengen_params,
    "tengen-get" => settings::tengen_get,
    "tengen-set" => settings::tengen_set,
    "kata-list-params" => katago::kata_list_params,
    "kata-get-param" => katago::kata_get_param,
    "kata-set-param" => katago::kata_set_param,
    "kata-get-rules" => katago::kata_get_rules,
    "kata-set-rules" => katago::kata_set_rules,
    "lz-setoption" => katago::lz_setoption,
    "kata-list_time_settings" => time::kata_list_time_settings,
    "kata-time_settings" => time::kata_time_settings,
};

/// The command called `name`, if there is one.
pub(crate) fn lookup(name: &str) -> Option<&'static Command> {
    COMMANDS.iter().find(|c| c.name == name)
}

/// The names of every supported command, in `list_commands` order.
pub fn names() -> impl Iterator<Item = &'static str> {
    COMMANDS.iter().map(|c| c.name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_well_formed() {
        let mut seen = std::collections::HashSet::new();
        for name in names() {
            assert!(seen.insert(name), "{name} listed twice");
            assert!(!name.is_empty() && name.bytes().all(|b| b.is_ascii_graphic()));
        }
    }
}
