//! One query line read and checked: KataGo's special actions, or a game and the turns
//! to analyse with their settings. Every field is checked as KataGo checks it, with its
//! words; a field Tengen does not use gets a warning naming it.

use std::time::Duration;

use serde_json::{Map, Value};
use tengen_board::{BoardSize, Color, Move, Point, Rules, Scoring};

use crate::notice::Notice;
use crate::options::{Perspective, SearchOptions};
use crate::overrides::apply_overrides;
use crate::position::Position;
use crate::rules::{parse_handicap_bonus, parse_rules, with_handicap_bonus};
use crate::vertex::{parse_location, parse_player};

/// The largest board Tengen plays (its board's limit).
pub const MAX_BOARD: i64 = tengen_board::MAX_SIZE as i64;

/// The largest `priority`, either way (KataGo's bound).
const MAX_PRIORITY: i64 = 0x3FFF_FFFF_FFFF_FFFF;

/// The longest part of a bad line quoted back in an error.
const QUOTED: usize = 200;

/// The server's settings that queries start from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Defaults {
    /// Playouts of a turn when the query names none.
    pub max_visits: u64,
    /// Whose side values are reported from when the query does not say.
    pub perspective: Perspective,
}

/// A checked query line.
#[derive(Debug)]
pub enum Request {
    /// `query_version`: echo the query with the version added.
    Version(Map<String, Value>),
    /// `clear_cache`: echo the query (Tengen keeps no cache between searches).
    ClearCache(Map<String, Value>),
    /// `terminate` (a `target` id) or `terminate_all` (none): stop those turns, then
    /// echo the query.
    Terminate {
        /// The query, echoed back.
        echo: Map<String, Value>,
        /// The id whose turns stop; `None` stops every query's.
        target: Option<String>,
        /// Only these turns, when given.
        turns: Option<Vec<i64>>,
    },
    /// Turns of a game to analyse.
    Analyze(Box<Query>),
}

/// A game and the turns of it to analyse.
#[derive(Debug)]
pub struct Query {
    /// The query's id, repeated on every response.
    pub id: String,
    /// The game.
    pub position: Position,
    /// The turns to analyse, in order, with their priorities.
    pub turns: Vec<(usize, i64)>,
    /// The settings of every turn's search.
    pub options: SearchOptions,
    /// Warnings to send before the analyses.
    pub warnings: Vec<Notice>,
}

/// Reads one line (without its newline) as a request, or the error to answer.
pub fn parse_line(line: &[u8], defaults: &Defaults) -> Result<Request, Notice> {
    let value: Value = serde_json::from_slice(line).map_err(|e| {
        Notice::general(format!(
            "{e} - could not parse input line as json request: {}",
            quote(line)
        ))
    })?;
    let Value::Object(input) = value else {
        return Err(Notice::general(format!(
            "Request line was valid json but was not an object, ignoring: {}",
            quote(line)
        )));
    };
    let Some(Value::String(id)) = input.get("id") else {
        return Err(Notice::general("Request must have a string \"id\" field"));
    };
    let id = id.clone();
    if let Some(action) = input.get("action") {
        return parse_action(&id, action, &input);
    }
    let fields = Fields {
        id: &id,
        input: &input,
    };
    fields
        .query(defaults)
        .map(|q| Request::Analyze(Box::new(q)))
}

/// The start of a bad line, as text, for its error.
fn quote(line: &[u8]) -> String {
    let text = String::from_utf8_lossy(&line[..line.len().min(QUOTED)]).into_owned();
    if line.len() > QUOTED {
        format!("{text}… ({} bytes)", line.len())
    } else {
        text
    }
}

fn parse_action(id: &str, action: &Value, input: &Map<String, Value>) -> Result<Request, Notice> {
    let turns = || -> Result<Option<Vec<i64>>, Notice> {
        match input.get("turnNumbers") {
            None => Ok(None),
            Some(v) => int_list(v).map(Some).ok_or_else(|| {
                Notice::error(
                    id,
                    "turnNumbers",
                    "If provided, must be an array of integers indicating turns to terminate",
                )
            }),
        }
    };
    match action.as_str() {
        Some("query_version") => Ok(Request::Version(input.clone())),
        Some("clear_cache") => Ok(Request::ClearCache(input.clone())),
        Some("terminate") => {
            let Some(Value::String(target)) = input.get("terminateId") else {
                return Err(Notice::error(
                    id,
                    "terminateId",
                    "Requests for a terminate action must have a string \"terminateId\" field",
                ));
            };
            Ok(Request::Terminate {
                echo: input.clone(),
                target: Some(target.clone()),
                turns: turns()?,
            })
        }
        Some("terminate_all") => Ok(Request::Terminate {
            echo: input.clone(),
            target: None,
            turns: turns()?,
        }),
        _ => Err(Notice::error(
            id,
            "action",
            "'action' field must be 'query_version' or 'clear_cache' or 'terminate' or \
             'terminate_all'",
        )),
    }
}

fn int_list(v: &Value) -> Option<Vec<i64>> {
    v.as_array()?.iter().map(Value::as_i64).collect()
}

/// Every top-level field of an analysis query that Tengen reads or answers.
const KNOWN: &[&str] = &[
    "id",
    "moves",
    "initialStones",
    "initialPlayer",
    "rules",
    "komi",
    "whiteHandicapBonus",
    "boardXSize",
    "boardYSize",
    "analyzeTurns",
    "maxVisits",
    "rootPolicyTemperature",
    "rootFpuReductionMax",
    "analysisPVLen",
    "includeOwnership",
    "includeOwnershipStdev",
    "includeMovesOwnership",
    "includeMovesOwnershipStdev",
    "includePolicy",
    "includePVVisits",
    "avoidMoves",
    "allowMoves",
    "overrideSettings",
    "reportDuringSearchEvery",
    "firstReportDuringSearchAfter",
    "priority",
    "priorities",
];

/// A query object and its id, read field by field.
struct Fields<'a> {
    id: &'a str,
    input: &'a Map<String, Value>,
}

impl Fields<'_> {
    fn get(&self, field: &str) -> Option<&Value> {
        self.input.get(field)
    }

    fn error(&self, field: &str, message: impl Into<String>) -> Notice {
        Notice::error(self.id, field, message)
    }

    fn int(&self, field: &str, lo: i64, hi: i64, message: &str) -> Result<Option<i64>, Notice> {
        match self.get(field) {
            None => Ok(None),
            Some(v) => match v.as_i64() {
                Some(x) if (lo..=hi).contains(&x) => Ok(Some(x)),
                _ => Err(self.error(field, message)),
            },
        }
    }

    fn real(&self, field: &str, lo: f64, hi: f64, message: &str) -> Result<Option<f64>, Notice> {
        match self.get(field) {
            None => Ok(None),
            Some(v) => match v.as_f64() {
                Some(x) if x.is_finite() && (lo..=hi).contains(&x) => Ok(Some(x)),
                _ => Err(self.error(field, message)),
            },
        }
    }

    fn flag(&self, field: &str) -> Result<bool, Notice> {
        match self.get(field) {
            None => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err(self.error(field, "Must be a boolean")),
        }
    }

    fn query(&self, defaults: &Defaults) -> Result<Query, Notice> {
        let size = self.board_size()?;
        let stones = match self.get("initialStones") {
            Some(v) => self.stones(v, size)?,
            None => Vec::new(),
        };
        let moves = match self.get("moves") {
            Some(v) => self.moves(v, size)?,
            None => {
                return Err(self.error("moves", "Must specify an array of [player,location] pairs"));
            }
        };
        let initial_player = self.initial_player()?;
        let turns = self.turns(moves.len() + 1)?;
        let rules = self.rules()?;
        let mut warnings = Vec::new();
        let mut options = self.search_options(defaults, &mut warnings)?;
        self.move_filter(size, &mut options, &mut warnings)?;
        for key in self.input.keys().filter(|k| !KNOWN.contains(&k.as_str())) {
            warnings.push(Notice::warning(
                self.id,
                key,
                "Unexpected or unused field, do you have a typo?",
            ));
        }
        let position = Position::new(size, rules, stones, initial_player, moves)
            .map_err(|r| self.error(r.field, r.message))?;
        Ok(Query {
            id: self.id.to_string(),
            position,
            turns,
            options,
            warnings,
        })
    }

    /// Who moves first in the position before the moves, where `initialPlayer` says.
    fn initial_player(&self) -> Result<Option<Color>, Notice> {
        match self.get("initialPlayer") {
            None => Ok(None),
            Some(v) => v
                .as_str()
                .and_then(parse_player)
                .map(Some)
                .ok_or_else(|| self.error("initialPlayer", "Must be \"b\" or \"w\"")),
        }
    }

    /// The search's options: the defaults, then `overrideSettings`, the visits and the
    /// principal variation's length, what the answer includes and when reports come
    /// during the search. Settings Tengen's search does not have are warned of.
    fn search_options(
        &self,
        defaults: &Defaults,
        warnings: &mut Vec<Notice>,
    ) -> Result<SearchOptions, Notice> {
        let mut options = SearchOptions::new(defaults.max_visits, defaults.perspective);
        self.override_settings(&mut options, warnings)?;
        if let Some(v) = self.int("maxVisits", 1, 1 << 50, "Must be an integer from 1 to 2^50")? {
            options.max_visits = v as u64;
        }
        if let Some(v) = self.int(
            "analysisPVLen",
            1,
            1000,
            "Must be an integer from 1 to 1000",
        )? {
            options.pv_len = v as usize;
        }
        for (field, lo, hi) in [
            ("rootFpuReductionMax", 0.0, 2.0),
            ("rootPolicyTemperature", 0.01, 100.0),
        ] {
            let message = format!("Must be a number from {lo:.1} to {hi:.1}");
            if self.real(field, lo, hi, &message)?.is_some() {
                warnings.push(Notice::warning(
                    self.id,
                    field,
                    "Tengen's search has no such setting; ignored",
                ));
            }
        }
        options.ownership = self.flag("includeOwnership")?;
        options.ownership_stdev = self.flag("includeOwnershipStdev")?;
        options.moves_ownership = self.flag("includeMovesOwnership")?;
        options.moves_ownership_stdev = self.flag("includeMovesOwnershipStdev")?;
        options.pv_visits = self.flag("includePVVisits")?;
        options.policy = self.flag("includePolicy")?;
        let seconds = "Must be number of seconds from 0.001 to 1000000.0";
        if let Some(s) = self.real("reportDuringSearchEvery", 0.001, 1e6, seconds)? {
            options.report_every = Some(Duration::from_secs_f64(s));
        }
        if let Some(s) = self.real("firstReportDuringSearchAfter", 0.001, 1e6, seconds)? {
            options.first_report = Some(Duration::from_secs_f64(s));
        }
        Ok(options)
    }

    /// Applies the `overrideSettings` object to `options`, with a warning naming the
    /// settings it does not know.
    fn override_settings(
        &self,
        options: &mut SearchOptions,
        warnings: &mut Vec<Notice>,
    ) -> Result<(), Notice> {
        let Some(settings) = self.get("overrideSettings") else {
            return Ok(());
        };
        let Value::Object(settings) = settings else {
            return Err(self.error("overrideSettings", "Must be an object"));
        };
        let ignored = apply_overrides(settings, options)
            .map_err(|e| self.error("overrideSettings", format!("Could not set settings: {e}")))?;
        if !ignored.is_empty() {
            warnings.push(Notice::warning(
                self.id,
                "overrideSettings",
                format!(
                    "Unknown config params: {} (Tengen's search has no such setting; ignored)",
                    ignored.join(",")
                ),
            ));
        }
        Ok(())
    }

    fn board_size(&self) -> Result<BoardSize, Notice> {
        let message = format!("Must provide an integer from 2 to {MAX_BOARD}");
        let mut sides = [0; 2];
        for (side, field) in sides.iter_mut().zip(["boardXSize", "boardYSize"]) {
            *side = self
                .int(field, 2, MAX_BOARD, &message)?
                .ok_or_else(|| self.error(field, message.as_str()))?;
        }
        let [x, y] = sides;
        if x != y {
            return Err(self.error(
                "boardYSize",
                format!(
                    "Tengen analyses square boards only: boardXSize {x} and boardYSize {y} differ"
                ),
            ));
        }
        BoardSize::new(x as u32).map_err(|_| self.error("boardXSize", message))
    }

    /// `[player, location]` pairs.
    fn pairs(&self, field: &str, v: &Value, size: BoardSize) -> Result<Vec<(Color, Move)>, Notice> {
        let shape = "Must be an array of pairs of the form: [\"b\" or \"w\", GTP board vertex]";
        let list = v.as_array().ok_or_else(|| self.error(field, shape))?;
        list.iter()
            .map(|pair| {
                let (Some(who), Some(at)) = (
                    pair.get(0).and_then(Value::as_str),
                    pair.get(1).and_then(Value::as_str),
                ) else {
                    return Err(self.error(field, shape));
                };
                if pair.as_array().map(Vec::len) != Some(2) {
                    return Err(self.error(field, shape));
                }
                let c = parse_player(who)
                    .ok_or_else(|| self.error(field, format!("Could not parse player: {who}")))?;
                let mv = parse_location(size, at).ok_or_else(|| {
                    self.error(field, format!("Could not parse board location: {at}"))
                })?;
                Ok((c, mv))
            })
            .collect()
    }

    fn moves(&self, v: &Value, size: BoardSize) -> Result<Vec<(Color, Move)>, Notice> {
        self.pairs("moves", v, size)
    }

    fn stones(&self, v: &Value, size: BoardSize) -> Result<Vec<(Color, Point)>, Notice> {
        self.pairs("initialStones", v, size)?
            .into_iter()
            .map(|(c, mv)| match mv {
                Move::Play(p) => Ok((c, p)),
                Move::Pass => {
                    Err(self.error("initialStones", "Could not parse board location: pass"))
                }
            })
            .collect()
    }

    /// `analyzeTurns` (the last turn by default) with `priority` or `priorities`.
    fn turns(&self, count: usize) -> Result<Vec<(usize, i64)>, Notice> {
        let mut wanted = vec![false; count];
        let listed = match self.get("analyzeTurns") {
            None => {
                wanted[count - 1] = true;
                None
            }
            Some(v) => {
                let list = int_list(v).ok_or_else(|| {
                    self.error(
                        "analyzeTurns",
                        "Must specify an array of integers indicating turns to analyze",
                    )
                })?;
                for &t in &list {
                    let slot = usize::try_from(t).ok().and_then(|t| wanted.get_mut(t));
                    *slot.ok_or_else(|| {
                        self.error("analyzeTurns", format!("Invalid turn number: {t}"))
                    })? = true;
                }
                Some(list)
            }
        };
        let priority_message = "Must be a number between -2^62 and 2^62";
        let base = self
            .int("priority", -MAX_PRIORITY, MAX_PRIORITY, priority_message)?
            .unwrap_or(0);
        let mut per_turn = vec![base; count];
        if let Some(v) = self.get("priorities") {
            if self.get("priority").is_some() {
                return Err(self.error("priority", "Cannot specify both priority and priorities"));
            }
            let list = int_list(v).ok_or_else(|| {
                self.error(
                    "priorities",
                    "Must specify an array of integers indicating priorities",
                )
            })?;
            let Some(turns) = listed else {
                return Err(self.error(
                    "priorities",
                    "Can only specify when also specifying analyzeTurns",
                ));
            };
            if list.len() != turns.len() {
                return Err(self.error("priorities", "Must be of matching length to analyzeTurns"));
            }
            for (&t, &p) in turns.iter().zip(&list) {
                if !(-MAX_PRIORITY..=MAX_PRIORITY).contains(&p) {
                    return Err(self.error("priorities", format!("Invalid priority: {p}")));
                }
                per_turn[t as usize] = p;
            }
        }
        Ok((0..count)
            .filter(|&t| wanted[t])
            .map(|t| (t, per_turn[t]))
            .collect())
    }

    /// `rules`, `komi` and `whiteHandicapBonus`.
    fn rules(&self) -> Result<Rules, Notice> {
        let value = self.get("rules").ok_or_else(|| {
            self.error(
                "rules",
                "Must specify rules string, such as \"chinese\" or \"tromp-taylor\", or a JSON \
                 object with detailed rules parameters.",
            )
        })?;
        let mut rules = parse_rules(value).map_err(|e| self.error("rules", e))?;
        let komi_message = "Must be a integer or half-integer from -150.0 to 150.0";
        if let Some(k) = self.real("komi", -150.0, 150.0, komi_message)? {
            if (k * 2.0).fract() != 0.0 {
                return Err(self.error("komi", komi_message));
            }
            rules
                .set_komi(k)
                .map_err(|e| self.error("komi", e.to_string()))?;
        } else if rules.scoring == Scoring::Territory {
            rules
                .set_komi(6.5)
                .map_err(|e| self.error("komi", e.to_string()))?;
        }
        if let Some(v) = self.get("whiteHandicapBonus") {
            let text = v
                .as_str()
                .ok_or_else(|| self.error("whiteHandicapBonus", "Must be a string"))?;
            let bonus =
                parse_handicap_bonus(text).map_err(|e| self.error("whiteHandicapBonus", e))?;
            rules = with_handicap_bonus(rules, bonus)
                .map_err(|e| self.error("whiteHandicapBonus", e))?;
        }
        Ok(rules)
    }

    /// `avoidMoves` or `allowMoves`.
    fn move_filter(
        &self,
        size: BoardSize,
        options: &mut SearchOptions,
        warnings: &mut Vec<Notice>,
    ) -> Result<(), Notice> {
        let (avoid, allow) = (self.get("avoidMoves"), self.get("allowMoves"));
        if avoid.is_some() && allow.is_some() {
            return Err(self.error(
                "allowMoves",
                "Cannot specify both allowMoves and avoidMoves",
            ));
        }
        let Some((field, list)) = avoid
            .map(|v| ("avoidMoves", v))
            .or(allow.map(|v| ("allowMoves", v)))
        else {
            return Ok(());
        };
        let shape = "Must be a list of dicts with subfields 'player', 'moves', 'untilDepth'";
        let list = list.as_array().ok_or_else(|| self.error(field, shape))?;
        if field == "allowMoves" && list.len() > 1 {
            return Err(self.error(field, "Currently allowMoves only allows one entry"));
        }
        let mut deep = false;
        for entry in list {
            let (Some(who), Some(moves), Some(depth)) = (
                entry.get("player"),
                entry.get("moves"),
                entry.get("untilDepth"),
            ) else {
                return Err(self.error(field, shape));
            };
            let c = who
                .as_str()
                .and_then(parse_player)
                .ok_or_else(|| self.error(field, "Must be \"b\" or \"w\""))?;
            let vertices = "Must be an array of GTP board vertices";
            let moves: Vec<Move> = moves
                .as_array()
                .ok_or_else(|| self.error(field, vertices))?
                .iter()
                .map(|m| {
                    let text = m.as_str().ok_or_else(|| self.error(field, vertices))?;
                    parse_location(size, text).ok_or_else(|| {
                        self.error(field, format!("Could not parse board location: {text}"))
                    })
                })
                .collect::<Result<_, _>>()?;
            let depth = depth
                .as_i64()
                .filter(|d| (1..=1_000_000_000).contains(d))
                .ok_or_else(|| self.error(field, "Must be a positive integer"))?;
            deep |= depth > 1;
            if field == "avoidMoves" {
                options.filter.avoid[c.index()].extend(moves);
            } else {
                options.filter.allow[c.index()] = Some(moves);
            }
        }
        if deep {
            warnings.push(Notice::warning(
                self.id,
                field,
                "Tengen applies these moves at the analysed turn's first move only: \
                 untilDepth beyond 1 is not applied",
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
