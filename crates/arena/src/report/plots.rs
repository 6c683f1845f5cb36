//! The report's plots, drawn by `plotters` into SVG text for the page to inline: the
//! SPRT's log-likelihood ratio against its bounds, the Elo with its interval as games
//! accumulate, game lengths, time a move by move number, and the engines' ratings.

use std::error::Error;

use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

use super::ratings::Rating;
use super::series::{MoveTimes, Step, Winner};

/// A plot's width and height in pixels.
const SIZE: (u32, u32) = (1000, 380);

/// Elo values beyond this (an unbeaten or winless start) are drawn at this edge.
const ELO_CLIP: f64 = 800.0;

/// The colour of the `i`-th series (also the i-th engine's in the time plot).
pub fn colour(i: usize) -> RGBColor {
    const COLOURS: [RGBColor; 8] = [
        RGBColor(31, 119, 180),
        RGBColor(214, 39, 40),
        RGBColor(44, 160, 44),
        RGBColor(148, 103, 189),
        RGBColor(255, 127, 14),
        RGBColor(140, 86, 75),
        RGBColor(227, 119, 194),
        RGBColor(23, 190, 207),
    ];
    COLOURS[i % COLOURS.len()]
}

type Chart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// How a chart's axes are labelled.
struct Axes<'a> {
    /// What the x axis counts (games, moves): labelled at whole numbers only.
    x: &'a str,
    /// What the y axis shows.
    y: &'a str,
    /// Decimals of the y labels.
    y_decimals: usize,
    /// Whether the legend goes to the upper right (else the upper left).
    legend_right: bool,
}

/// Draws one chart with the given caption, axes and ranges into SVG text.
fn chart(
    caption: &str,
    axes: Axes<'_>,
    x: std::ops::Range<f64>,
    y: std::ops::Range<f64>,
    draw: impl FnOnce(&mut Chart<'_, '_>) -> Result<(), Box<dyn Error>>,
) -> Result<String, String> {
    // Counts are labelled where they are whole; the ticks between keep their grid line.
    let x_label = |v: &f64| {
        if (v - v.round()).abs() < 1e-9 {
            format!("{v:.0}")
        } else {
            String::new()
        }
    };
    let y_label = |v: &f64| format!("{v:.*}", axes.y_decimals);
    let legend_right = axes.legend_right;
    let mut svg = String::new();
    let result = (|| -> Result<(), Box<dyn Error>> {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(caption, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(56)
            .build_cartesian_2d(x, y)?;
        chart
            .configure_mesh()
            .x_desc(axes.x)
            .y_desc(axes.y)
            .x_label_formatter(&x_label)
            .y_label_formatter(&y_label)
            .light_line_style(RGBColor(235, 235, 235))
            .label_style(("sans-serif", 13))
            .draw()?;
        draw(&mut chart)?;
        // The legend of the series that were given a label.
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(RGBColor(180, 180, 180))
            .label_font(("sans-serif", 13))
            .position(if legend_right {
                SeriesLabelPosition::UpperRight
            } else {
                SeriesLabelPosition::UpperLeft
            })
            .draw()?;
        root.present()?;
        Ok(())
    })();
    result.map(|()| svg).map_err(|e| e.to_string())
}

/// A range around `lo..hi` with a margin, never empty.
fn padded(lo: f64, hi: f64) -> std::ops::Range<f64> {
    let (lo, hi) = if hi - lo < 1e-9 {
        (lo - 1.0, hi + 1.0)
    } else {
        (lo, hi)
    };
    let pad = (hi - lo) * 0.06;
    lo - pad..hi + pad
}

/// The x range of `n` games, from 0.
fn games_range(n: u32) -> std::ops::Range<f64> {
    0.0..f64::from(n.max(1)) + 0.5
}

/// The SPRT's log-likelihood ratio game by game with its two bounds.
pub fn sprt(steps: &[Step], bounds: (f64, f64), who: &str) -> Result<String, String> {
    let llr: Vec<(f64, f64)> = std::iter::once((0.0, 0.0))
        .chain(
            steps
                .iter()
                .filter_map(|s| s.llr.map(|l| (f64::from(s.played), l))),
        )
        .collect();
    let lo = llr.iter().map(|p| p.1).fold(bounds.0, f64::min);
    let hi = llr.iter().map(|p| p.1).fold(bounds.1, f64::max);
    let n = steps.last().map_or(0, |s| s.played);
    let x = games_range(n);
    let x_end = x.end;
    chart(
        &format!("SPRT log-likelihood ratio, {who}"),
        Axes {
            x: "games",
            y: "LLR",
            y_decimals: 1,
            legend_right: false,
        },
        x,
        padded(lo, hi),
        |c| {
            let bound = |y: f64| vec![(0.0, y), (x_end, y)];
            c.draw_series(LineSeries::new(bound(bounds.1), GREEN.stroke_width(2)))?
                .label(format!("upper bound {:.2}: H1 accepted", bounds.1))
                .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], GREEN));
            c.draw_series(LineSeries::new(bound(bounds.0), RED.stroke_width(2)))?
                .label(format!("lower bound {:.2}: H0 accepted", bounds.0))
                .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], RED));
            c.draw_series(LineSeries::new(bound(0.0), RGBColor(150, 150, 150)))?;
            c.draw_series(LineSeries::new(llr.clone(), colour(0).stroke_width(2)))?
                .label("LLR")
                .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], colour(0)));
            c.draw_series(
                llr.iter()
                    .skip(1)
                    .map(|&p| Circle::new(p, 2, colour(0).filled())),
            )?;
            Ok(())
        },
    )
}

/// `x` clipped to ±[`ELO_CLIP`] (infinities included).
fn clip(x: f64) -> f64 {
    x.clamp(-ELO_CLIP, ELO_CLIP)
}

/// One engine's Elo against each opponent as their games accumulate, with the 95%
/// interval as a band: `(opponent label, steps)`.
pub fn elo(series: &[(String, Vec<Step>)], who: &str) -> Result<String, String> {
    let points = |steps: &[Step]| -> Vec<(f64, f64, f64, f64)> {
        steps
            .iter()
            .filter_map(|s| {
                s.elo
                    .map(|e| (f64::from(s.played), clip(e.elo), clip(e.low), clip(e.high)))
            })
            .collect()
    };
    let all: Vec<(f64, f64, f64, f64)> = series.iter().flat_map(|(_, s)| points(s)).collect();
    let lo = all.iter().map(|p| p.2).fold(0.0, f64::min);
    let hi = all.iter().map(|p| p.3).fold(0.0, f64::max);
    let n = series
        .iter()
        .filter_map(|(_, s)| s.last().map(|s| s.played))
        .max()
        .unwrap_or(0);
    chart(
        &format!("Elo of {who} with its 95% interval"),
        Axes {
            x: "games",
            y: "Elo",
            y_decimals: 0,
            legend_right: false,
        },
        games_range(n),
        padded(lo, hi),
        |c| {
            c.draw_series(LineSeries::new(
                vec![(0.0, 0.0), (f64::from(n.max(1)) + 0.5, 0.0)],
                RGBColor(150, 150, 150),
            ))?;
            for (i, (opponent, steps)) in series.iter().enumerate() {
                let p = points(steps);
                let band: Vec<(f64, f64)> = p
                    .iter()
                    .map(|q| (q.0, q.3))
                    .chain(p.iter().rev().map(|q| (q.0, q.2)))
                    .collect();
                let shade = colour(i).mix(0.18);
                c.draw_series(std::iter::once(Polygon::new(band, shade.filled())))?;
                let col = colour(i);
                c.draw_series(LineSeries::new(
                    p.iter().map(|q| (q.0, q.1)),
                    col.stroke_width(2),
                ))?
                .label(format!("against {opponent}"))
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], col));
            }
            Ok(())
        },
    )
}

/// Every game's length in moves, coloured by the winning colour.
pub fn lengths(games: &[(u32, u32, Winner)]) -> Result<String, String> {
    let max_game = games.iter().map(|g| g.0).max().unwrap_or(1);
    let max_moves = games.iter().map(|g| g.1).max().unwrap_or(1);
    let mean = if games.is_empty() {
        0.0
    } else {
        games.iter().map(|g| f64::from(g.1)).sum::<f64>() / games.len() as f64
    };
    chart(
        "Game length",
        Axes {
            x: "game number",
            y: "moves",
            y_decimals: 0,
            legend_right: false,
        },
        games_range(max_game),
        0.0..f64::from(max_moves) * 1.1 + 1.0,
        |c| {
            let style = |w: Winner| match w {
                Winner::Black => BLACK.filled(),
                Winner::White => BLACK.stroke_width(1),
                Winner::Neither => RGBColor(200, 120, 0).filled(),
            };
            for (w, name) in [
                (Winner::Black, "Black won"),
                (Winner::White, "White won"),
                (Winner::Neither, "draw or void"),
            ] {
                let points: Vec<(f64, f64)> = games
                    .iter()
                    .filter(|g| g.2 == w)
                    .map(|g| (f64::from(g.0), f64::from(g.1)))
                    .collect();
                if points.is_empty() {
                    continue;
                }
                c.draw_series(points.into_iter().map(move |p| Circle::new(p, 4, style(w))))?
                    .label(name)
                    .legend(move |(x, y)| Circle::new((x + 8, y), 4, style(w)));
            }
            c.draw_series(LineSeries::new(
                vec![(0.0, mean), (f64::from(max_game) + 0.5, mean)],
                RGBColor(120, 120, 120),
            ))?
            .label(format!("mean {mean:.1}"))
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], RGBColor(120, 120, 120)));
            Ok(())
        },
    )
}

/// Each engine's mean seconds for its n-th move of a game.
pub fn move_times(times: &[MoveTimes]) -> Result<String, String> {
    let max_n = times
        .iter()
        .flat_map(|t| t.by_move.last().map(|m| m.0))
        .max()
        .unwrap_or(1);
    let max_secs = times
        .iter()
        .flat_map(|t| t.by_move.iter().map(|m| m.1))
        .fold(0.0, f64::max);
    chart(
        "Time a move",
        Axes {
            x: "the engine's n-th move of the game",
            y: "seconds (mean over games)",
            y_decimals: if max_secs < 0.1 { 3 } else { 2 },
            legend_right: false,
        },
        0.5..f64::from(max_n) + 0.5,
        0.0..(max_secs * 1.15).max(1e-3),
        |c| {
            for (i, t) in times.iter().enumerate() {
                if t.by_move.is_empty() {
                    continue;
                }
                let col = colour(i);
                c.draw_series(LineSeries::new(
                    t.by_move.iter().map(|m| (f64::from(m.0), m.1)),
                    col.stroke_width(2),
                ))?
                .label(t.label.clone())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], col));
            }
            Ok(())
        },
    )
}

/// Every rated engine's rating with its 95% interval as an error bar.
pub fn ratings(rated: &[(String, Rating)]) -> Result<String, String> {
    let lo = rated.iter().map(|r| r.1.low).fold(0.0, f64::min);
    let hi = rated.iter().map(|r| r.1.high).fold(0.0, f64::max);
    let k = rated.len();
    chart(
        "Ratings (mean 0) with 95% intervals",
        Axes {
            x: "rank (as in the ratings table)",
            y: "Elo",
            y_decimals: 0,
            legend_right: true,
        },
        0.5..k as f64 + 0.5,
        padded(lo, hi),
        |c| {
            for (i, (name, r)) in rated.iter().enumerate() {
                let x = i as f64 + 1.0;
                let col = colour(i);
                c.draw_series(std::iter::once(ErrorBar::new_vertical(
                    x,
                    r.low,
                    r.elo,
                    r.high,
                    col.stroke_width(2),
                    14,
                )))?;
                c.draw_series(std::iter::once(Circle::new((x, r.elo), 5, col.filled())))?
                    .label(format!("{}. {name}", i + 1))
                    .legend(move |(x, y)| Circle::new((x + 8, y), 5, col.filled()));
            }
            Ok(())
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{EloEstimate, Wdl};

    fn step(played: u32, elo: f64) -> Step {
        Step {
            played,
            game: played,
            wdl: Wdl::default(),
            elo: Some(EloEstimate {
                elo,
                low: elo - 50.0,
                high: f64::INFINITY,
            }),
            llr: Some(played as f64 * 0.3),
        }
    }

    #[test]
    fn plots_are_svg_with_their_labels_even_for_infinite_or_empty_input() {
        let steps = [step(1, f64::INFINITY), step(2, 40.0), step(3, -20.0)];
        let svg = sprt(&steps, (-2.94, 2.94), "A against B").unwrap();
        assert!(
            svg.starts_with("<svg") && svg.contains("upper bound 2.94"),
            "{svg}"
        );
        let svg = elo(&[("B & co".into(), steps.to_vec())], "A").unwrap();
        assert!(
            svg.contains("against B &amp; co") && !svg.contains("NaN"),
            "{svg}"
        );
        for svg in [
            elo(&[], "A").unwrap(),
            sprt(&[], (-1.0, 1.0), "A").unwrap(),
            lengths(&[]).unwrap(),
            move_times(&[]).unwrap(),
            ratings(&[]).unwrap(),
        ] {
            assert!(svg.starts_with("<svg") && !svg.contains("NaN"), "{svg}");
        }
        let svg = lengths(&[(1, 50, Winner::Black), (2, 0, Winner::Neither)]).unwrap();
        assert!(
            svg.contains("Black won") && svg.contains("mean 25.0"),
            "{svg}"
        );
    }
}
