//! The engine's settings as command-line flags, made from the engine's one table
//! (`tengen_engine::settings::SETTINGS`): `--FLAG VALUE` for each setting (a switch has
//! `--FLAG` and `--no-FLAG`), with the table's bounds, unit, help and default. GTP's
//! `tengen-set` reads the same table, so a flag and its setting never drift apart.
//!
//! `tengen gtp` takes every setting ([`SettingFlags`]). The subcommands that search
//! without playing (`review`, `diagnose`, `analysis`) take a few ([`SearchFlags`]),
//! parsed and applied by the same table, each worded for its subcommand
//! ([`SearchFlag`]): its own help and default, bounds narrower than the table's, or
//! another flag name.

use std::marker::PhantomData;

use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};
use tengen_engine::Config;
use tengen_engine::settings::{Kind, SETTINGS, Setting, find};

use crate::bounds::{self, Whole};

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
        self.text(name).is_some()
    }

    /// The value given for the setting called `name` (its GTP name), as given.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.given
            .iter()
            .find(|(s, _)| s.name == name)
            .map(|(_, text)| text.as_str())
    }

    /// Records `text` as the value of `setting`, in place of an earlier one.
    fn give(&mut self, setting: &'static Setting, text: String) {
        self.given.retain(|(s, _)| s.name != setting.name);
        self.given.push((setting, text));
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
                self.give(setting, text);
            }
        }
        Ok(())
    }
}

/// One of the table's settings as a flag of a subcommand that searches without playing:
/// the table's parser, value name and flag, with the subcommand's own help, and where
/// it needs them its own default, narrower bounds, another flag name or a flag it
/// cannot be given with. Made by [`SearchFlag::new`] and the methods after it.
#[derive(Clone, Copy, Debug)]
pub struct SearchFlag {
    /// The setting's name in the table (its GTP name).
    setting: &'static str,
    /// What the subcommand's help says of it.
    help: &'static str,
    /// The flag without its dashes, where not the table's.
    flag: Option<&'static str>,
    /// What help calls the value, where not the table's.
    value_name: Option<&'static str>,
    /// Bounds narrower than the table's, checked first (so refused in their words).
    bounds: Option<Whole>,
    /// The value when the flag is not given, shown by help as `[default: …]`.
    default: Option<&'static str>,
    /// The flag (without its dashes) that this one cannot be given with.
    conflicts_with: Option<&'static str>,
}

impl SearchFlag {
    /// The setting called `setting` in the table, with `help` (one sentence, no
    /// closing full stop, as the other flags' help).
    pub const fn new(setting: &'static str, help: &'static str) -> SearchFlag {
        SearchFlag {
            setting,
            help,
            flag: None,
            value_name: None,
            bounds: None,
            default: None,
            conflicts_with: None,
        }
    }

    /// Named `--flag` instead of the table's flag.
    pub const fn flag(self, flag: &'static str) -> SearchFlag {
        SearchFlag {
            flag: Some(flag),
            ..self
        }
    }

    /// Its value called `name` in help instead of the table's name.
    pub const fn value_name(self, name: &'static str) -> SearchFlag {
        SearchFlag {
            value_name: Some(name),
            ..self
        }
    }

    /// Taking only values within `bounds`, a part of the table's.
    pub const fn bounds(self, bounds: Whole) -> SearchFlag {
        SearchFlag {
            bounds: Some(bounds),
            ..self
        }
    }

    /// Set to `value` when not given.
    pub const fn default_value(self, value: &'static str) -> SearchFlag {
        SearchFlag {
            default: Some(value),
            ..self
        }
    }

    /// Not to be given with `--flag`.
    pub const fn conflicts_with(self, flag: &'static str) -> SearchFlag {
        SearchFlag {
            conflicts_with: Some(flag),
            ..self
        }
    }

    /// The setting, which the table must hold (a test checks every subcommand's).
    fn setting(&self) -> &'static Setting {
        find(self.setting).unwrap_or_else(|| panic!("no setting {:?}", self.setting))
    }

    /// The flag without its dashes.
    fn long(&self) -> &'static str {
        self.flag.unwrap_or(self.setting().flag)
    }

    /// The flag's id: its name with `_` for `-`, as clap's derive names a field's.
    fn id(&self) -> String {
        self.long().replace('-', "_")
    }

    /// The flag, read by the table's parser after the narrower bounds.
    fn arg(&self) -> Arg {
        let setting = self.setting();
        let narrower = self.bounds;
        let mut arg = Arg::new(self.id())
            .long(self.long())
            .value_name(self.value_name.unwrap_or(setting.value_name))
            .allow_hyphen_values(true)
            .value_parser(move |text: &str| {
                if let Some(bounds) = narrower {
                    bounds.parse::<u64>(text)?;
                }
                setting.parse(text).map(|_| text.to_string())
            })
            .help(self.help);
        if let Some(value) = self.default {
            arg = arg.default_value(value);
        }
        if let Some(other) = self.conflicts_with {
            arg = arg.conflicts_with(other.replace('-', "_"));
        }
        arg
    }
}

/// Which of the table's settings a subcommand takes as flags, and how it words them.
pub trait SearchFlagSet {
    /// The flags, in the order help lists them.
    const FLAGS: &'static [SearchFlag];
}

/// The search flags of one subcommand (its [`SearchFlagSet`] `S`) as given, applied to
/// a [`Config`] by the table as `tengen gtp`'s are.
pub struct SearchFlags<S> {
    given: SettingFlags,
    set: PhantomData<S>,
}

impl<S> std::fmt::Debug for SearchFlags<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.given.fmt(f)
    }
}

impl<S> std::ops::Deref for SearchFlags<S> {
    type Target = SettingFlags;

    fn deref(&self) -> &SettingFlags {
        &self.given
    }
}

impl<S: SearchFlagSet> Args for SearchFlags<S> {
    fn augment_args(cmd: Command) -> Command {
        cmd.args(S::FLAGS.iter().map(SearchFlag::arg))
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl<S: SearchFlagSet> FromArgMatches for SearchFlags<S> {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let mut flags = SearchFlags {
            given: SettingFlags::default(),
            set: PhantomData,
        };
        flags.update_from_arg_matches(matches)?;
        Ok(flags)
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        for flag in S::FLAGS {
            if let Some(text) = matches.get_one::<String>(&flag.id()) {
                self.given.give(flag.setting(), text.clone());
            }
        }
        Ok(())
    }
}
