//! The engine's settings as command-line flags, made from the engine's one table
//! (`tengen_engine::settings::SETTINGS`): `--FLAG VALUE` for each setting (a switch has
//! `--FLAG` and `--no-FLAG`), with the table's bounds, unit, help and default. GTP's
//! `tengen-set` reads the same table, so a flag and its setting never drift apart.

use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};
use tengen_engine::Config;
use tengen_engine::settings::{Kind, SETTINGS, Setting};

use crate::bounds;

/// The engine settings given on the command line, in the table's order.
#[derive(Clone, Debug, Default)]
pub struct SettingFlags {
    given: Vec<(&'static Setting, String)>,
}

impl SettingFlags {
    /// Sets every given setting in `config`. The flags' parsers checked each value
    /// already; a value set otherwise is refused in the same words.
    pub fn apply(&self, config: &mut Config) -> Result<(), String> {
        for (setting, text) in &self.given {
            setting
                .set(config, text)
                .map_err(|why| bounds::refused(&format!("--{}", setting.flag), text, why))?;
        }
        Ok(())
    }

    /// Whether the setting called `name` (its GTP name) was given.
    pub fn has(&self, name: &str) -> bool {
        self.given.iter().any(|(s, _)| s.name == name)
    }
}

/// The id of a switch's `--no-FLAG`.
fn negation(setting: &Setting) -> String {
    format!("no_{}", setting.name)
}

/// The flag (or, for a switch, the two flags) of `setting`.
fn flags(setting: &'static Setting) -> Vec<Arg> {
    let help = format!(
        "{} [{}; default: {}]",
        setting.help,
        setting.range_text(),
        setting.default_text()
    );
    if setting.kind == Kind::Switch {
        let no = negation(setting);
        return vec![
            Arg::new(setting.name)
                .long(setting.flag)
                .action(ArgAction::SetTrue)
                .overrides_with(no.clone())
                .help(help),
            Arg::new(no.clone())
                .long(format!("no-{}", setting.flag))
                .action(ArgAction::SetTrue)
                .overrides_with(setting.name)
                .help(format!("The opposite of --{}.", setting.flag)),
        ];
    }
    vec![
        Arg::new(setting.name)
            .long(setting.flag)
            .value_name(setting.value_name)
            .allow_hyphen_values(true)
            .value_parser(move |text: &str| setting.parse(text).map(|_| text.to_string()))
            .help(help),
    ]
}

impl Args for SettingFlags {
    fn augment_args(cmd: Command) -> Command {
        cmd.args(SETTINGS.iter().flat_map(flags))
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl FromArgMatches for SettingFlags {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let mut flags = SettingFlags::default();
        flags.update_from_arg_matches(matches)?;
        Ok(flags)
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        for setting in SETTINGS {
            let text = if setting.kind == Kind::Switch {
                let on = matches.get_flag(setting.name);
                let off = matches.get_flag(&negation(setting));
                (on || off).then(|| on.to_string())
            } else {
                matches.get_one::<String>(setting.name).cloned()
            };
            if let Some(text) = text {
                self.given.retain(|(s, _)| s.name != setting.name);
                self.given.push((setting, text));
            }
        }
        Ok(())
    }
}
