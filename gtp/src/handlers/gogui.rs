//! GoGui's analyze commands: the menu (`gogui-analyze_commands`) and the commands it
//! lists: ownership as a heat map, visit counts, the principal variation, the win rate.
//! Each runs one search of the engine's usual length (stopped early by any input).

use std::fmt::Write as _;

use tengen_board::{BoardSize, Color};

use crate::args::Args;
use crate::error::{Answer, GtpError};
use crate::handlers::scoring;
use crate::session::{Ctx, Session};
use crate::summary::win_rate_text;
use tengen_engine::{Analysis, Report, SearchRequest};

/// The menu: `type/label/command`, GoGui's `%m` being the colour to move.
const MENU: &[&str] = &[
    "gfx/Tengen: Ownership/tengen-gfx_ownership %m",
    "dboard/Tengen: Ownership values/tengen-ownership_dboard %m",
    "gfx/Tengen: Visits/tengen-gfx_visits %m",
    "gfx/Tengen: Principal variation/tengen-gfx_pv %m",
    "string/Tengen: Win rate/tengen-winrate %m",
    "plist/Tengen: Dead stones/final_status_list dead",
    "plist/Tengen: Seki stones/final_status_list seki",
    "gfx/Tengen: Pass-alive groups/tengen-gfx_pass_alive",
    "string/Tengen: Score/final_score",
    "param/Tengen: Settings/tengen-params",
];

/// `gogui-analyze_commands`: the menu above.
pub(crate) fn analyze_commands(_: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    a.end()?;
    Ok(MENU.join("\n"))
}

/// The colour argument (`%m`), the side to move when omitted.
fn color_arg(s: &Session, a: &mut Args<'_>) -> Result<Color, GtpError> {
    let c = if a.is_empty() {
        s.game.to_move()
    } else {
        a.color()?
    };
    a.end()?;
    Ok(c)
}

/// One search of the position for `color` (the engine's usual length), stopped early
/// by GoGui's `# interrupt` (not by other queued input, which would leave it empty).
pub(crate) fn snapshot(
    s: &mut Session,
    ctx: &mut Ctx<'_>,
    color: Color,
    ownership: bool,
) -> Analysis {
    let limit = tengen_engine::time::analysis_limit(s.engine.config());
    let stop = ctx.signals.arm_interrupt();
    let mut ignore = |_: &Analysis| {};
    let report = Report {
        interval: std::time::Duration::from_secs(3600),
        sink: &mut ignore,
        extras: Default::default(),
    };
    let Session { engine, game, .. } = s;
    let req = SearchRequest::new(game, color, limit, stop)
        .ownership(ownership)
        .report(Some(report));
    engine.search(req)
}

/// `tengen-ownership [color]`: the engine's judgement of the position, for people:
/// a heading that says which sign is whose and the score it gives, then the grid with
/// the board's coordinates around it, +1.00 Black's, -1.00 White's. It is the
/// judgement `final_status_list` and `final_score` read (the colour is accepted as
/// GoGui's `%m`; the judgement is of the side to move).
pub(crate) fn ownership(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    color_arg(s, a)?;
    let own = scoring::judgement(s).ownership;
    let (score, how) = scoring::score(s);
    let size = s.game.size();
    let n = size.get();
    let columns: String = (0..n)
        .filter_map(|x| size.point(x, 0))
        .map(|p| {
            let v = size.vertex(p).to_string();
            format!(" {:>5}", v.trim_end_matches(char::is_numeric))
        })
        .collect();
    let mut out = format!(
        "\nOwnership: +1.00 is Black's, -1.00 White's, 0.00 nobody's; {} ({})\n   {columns}\n",
        score.result(),
        match how {
            scoring::Reckoning::Count => "the count",
            scoring::Reckoning::Estimate => "an estimate: nobody has passed",
        }
    );
    for (row, values) in own.chunks(n).enumerate() {
        let y = n - row;
        let _ = write!(out, "{y:>3}");
        for v in values {
            let _ = write!(out, " {v:>+5.2}");
        }
        let _ = writeln!(out, " {y:>3}");
    }
    let _ = write!(out, "   {columns}");
    Ok(out)
}

/// `tengen-ownership_dboard [color]`: the same values as `tengen-ownership`, bare,
/// rows from the top: GoGui's `dboard` type, which reads nothing else.
pub(crate) fn ownership_dboard(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    color_arg(s, a)?;
    let own = scoring::judgement(s).ownership;
    let n = s.game.size().get();
    let rows: Vec<String> = own
        .chunks(n)
        .map(|row| {
            row.iter()
                .map(|v| format!("{v:.2}"))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    Ok(format!("\n{}", rows.join("\n")))
}

/// `tengen-gfx_ownership [color]`: INFLUENCE squares from the judgement (as
/// `tengen-ownership`) and a TEXT line with the score it gives.
pub(crate) fn gfx_ownership(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    color_arg(s, a)?;
    let judgement = scoring::judgement(s);
    let size = s.game.size();
    let n = size.get();
    let mut out = String::new();
    for (row, values) in judgement.ownership.chunks(n).enumerate() {
        out.push_str("INFLUENCE");
        for (x, v) in values.iter().enumerate() {
            if let Some(p) = size.point(x, n - 1 - row) {
                let _ = write!(out, " {} {v:.2}", size.vertex(p));
            }
        }
        out.push('\n');
    }
    let st = &judgement.status;
    let (score, how) = scoring::score(s);
    let estimate = match how {
        scoring::Reckoning::Count => "",
        scoring::Reckoning::Estimate => " (an estimate: nobody has passed)",
    };
    let _ = write!(
        out,
        "TEXT {}{estimate} with {} dead and {} seki stones",
        score.result(),
        st.dead.count(),
        st.seki.count()
    );
    Ok(out)
}

/// `tengen-gfx_visits [color]`: each candidate labelled with its playouts.
pub(crate) fn gfx_visits(s: &mut Session, a: &mut Args<'_>, ctx: &mut Ctx<'_>) -> Answer {
    searched_gfx(s, a, ctx, |out, _, an, size| {
        let labels: Vec<String> = an
            .moves
            .iter()
            .filter(|m| m.visits > 0)
            .filter_map(|m| match m.mv {
                tengen_board::Move::Play(p) => Some(format!("{} {}", size.vertex(p), m.visits)),
                tengen_board::Move::Pass => None,
            })
            .collect();
        if !labels.is_empty() {
            let _ = writeln!(out, "LABEL {}", labels.join(" "));
        }
        if let Some(best) = an.best() {
            let _ = writeln!(out, "SQUARE {}", size.move_vertex(best.mv));
        }
    })
}

/// `tengen-gfx_pv [color]`: the best sequence as a variation.
pub(crate) fn gfx_pv(s: &mut Session, a: &mut Args<'_>, ctx: &mut Ctx<'_>) -> Answer {
    searched_gfx(s, a, ctx, |out, color, an, size| {
        if let Some(best) = an.best() {
            out.push_str("VAR");
            let mut c = color;
            for &m in &best.pv {
                let _ = write!(
                    out,
                    " {} {}",
                    if c == Color::Black { "b" } else { "w" },
                    size.move_vertex(m)
                );
                c = c.opponent();
            }
            out.push('\n');
        }
    })
}

/// A graphics answer about one search for the colour argument: what `draw` writes
/// of the search (given the colour and the board size), then its headline as the
/// `TEXT`.
fn searched_gfx(
    s: &mut Session,
    a: &mut Args<'_>,
    ctx: &mut Ctx<'_>,
    draw: impl FnOnce(&mut String, Color, &Analysis, BoardSize),
) -> Answer {
    let color = color_arg(s, a)?;
    let an = snapshot(s, ctx, color, false);
    let mut out = String::new();
    draw(&mut out, color, &an, s.game.size());
    let _ = write!(out, "TEXT {}", headline(s, &an));
    Ok(out)
}

/// `tengen-winrate [color]`: one line of text.
pub(crate) fn winrate(s: &mut Session, a: &mut Args<'_>, ctx: &mut Ctx<'_>) -> Answer {
    let color = color_arg(s, a)?;
    let an = snapshot(s, ctx, color, false);
    Ok(headline(s, &an))
}

/// The one line of text about a snapshot (see [`win_rate_text`]).
fn headline(s: &Session, an: &Analysis) -> String {
    win_rate_text(an, s.game.size())
}
