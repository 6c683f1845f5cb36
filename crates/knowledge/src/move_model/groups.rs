//! The move model's tactical feature groups, by name and number of values: the
//! vocabulary that the features ([`super::features`]) compute and a table's
//! `without` line ([`super::left_out`]) names.

/// The tactical groups: name and how many values each has.
pub const GROUPS: [(&str, usize); 8] = [
    ("pass", 3),
    ("capture", 7),
    ("escape", 4),
    ("atari", 4),
    ("self-atari", 5),
    ("previous", 17),
    ("before-previous", 17),
    ("edge", 6),
];

/// How many tactical groups there are.
pub const TACTICAL: usize = GROUPS.len();
