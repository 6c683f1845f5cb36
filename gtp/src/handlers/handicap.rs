//! Handicap: GTP's fixed table, the engine's free placement, and the GUI's own list.

use tengen_board::{HandicapError, Point};

use crate::args::Args;
use crate::error::{Answer, GtpError};
use crate::session::{Ctx, Session};

fn handicap_error(e: HandicapError) -> GtpError {
    match e {
        HandicapError::InvalidCount { .. } => GtpError::InvalidNumberOfStones,
        HandicapError::BoardNotEmpty => GtpError::BoardNotEmpty,
        HandicapError::BadList => GtpError::BadVertexList,
    }
}

fn ensure_empty(s: &Session) -> Result<(), GtpError> {
    let g = &s.game;
    let stones = g.board().stones(tengen_board::Color::Black).count()
        + g.board().stones(tengen_board::Color::White).count();
    if g.move_count() > 0 || !g.setup_stones().is_empty() || stones > 0 {
        Err(GtpError::BoardNotEmpty)
    } else {
        Ok(())
    }
}

fn vertices(s: &Session, points: &[Point]) -> String {
    let size = s.game.size();
    points
        .iter()
        .map(|&p| size.vertex(p).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// `fixed_handicap N`: the spec's star points (2..=9 on odd sizes from 9, 2..=4 on even
/// sizes and 7×7).
pub(crate) fn fixed_handicap(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    let n = a.int("number of stones")?;
    a.end()?;
    ensure_empty(s)?;
    let n = u32::try_from(n).map_err(|_| GtpError::InvalidNumberOfStones)?;
    let points = s.game.place_fixed_handicap(n).map_err(handicap_error)?;
    s.forget();
    Ok(vertices(s, &points))
}

/// `place_free_handicap N`: the engine chooses `N` points (2 up to the area less one).
pub(crate) fn place_free_handicap(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    let n = a.int("number of stones")?;
    a.end()?;
    ensure_empty(s)?;
    let area = s.game.size().area();
    let n = usize::try_from(n)
        .ok()
        .filter(|&n| n >= 2 && n < area)
        .ok_or(GtpError::InvalidNumberOfStones)?;
    let points = crate::handicap::free_handicap(s.game.size(), n);
    s.game.place_handicap(&points).map_err(handicap_error)?;
    s.forget();
    Ok(vertices(s, &points))
}

/// `set_free_handicap V…`: the controller's points (at least two, distinct, no pass).
pub(crate) fn set_free_handicap(s: &mut Session, a: &mut Args<'_>, _: &mut Ctx<'_>) -> Answer {
    let points = a
        .points(s.game.size())
        .map_err(|_| GtpError::BadVertexList)?;
    ensure_empty(s)?;
    if points.len() < 2 || points.len() >= s.game.size().area() {
        return Err(GtpError::BadVertexList);
    }
    s.game.place_handicap(&points).map_err(handicap_error)?;
    s.forget();
    Ok(String::new())
}
