//! The review's graph: Black's win rate and score lead over the game, the mistakes
//! marked, drawn by `plotters` into a self-contained SVG document.

use plotters::chart::DualCoordChartContext;
use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::Color as _;
use tengen_board::Color;

use crate::error::ReviewError;

/// The graph's size in pixels.
pub const SIZE: (u32, u32) = (960, 480);

/// The win rate line's colour.
const WINRATE: RGBColor = RGBColor(31, 119, 180);
/// The score lead line's colour.
const LEAD: RGBColor = RGBColor(230, 120, 20);
/// The ring around a mistake.
const MISTAKE: RGBColor = RGBColor(214, 39, 40);

/// What the graph shows.
#[derive(Clone, Debug, PartialEq)]
pub struct GraphData {
    /// The title.
    pub title: String,
    /// The moves of the game: the horizontal axis runs from 0 to this.
    pub moves: usize,
    /// Each analysed position: moves played, Black's win rate in [0, 1], Black's
    /// score lead in points.
    pub points: Vec<(usize, f64, f64)>,
    /// The mistakes: the move's number, who played it, and whether it is one of the
    /// key mistakes (those get their number beside the mark).
    pub mistakes: Vec<(usize, Color, bool)>,
}

/// Draws the graph as an SVG document.
pub fn draw(data: &GraphData) -> Result<String, ReviewError> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        plot(&root, data).map_err(|e| ReviewError::Graph(e.to_string()))?;
        root.present()
            .map_err(|e| ReviewError::Graph(e.to_string()))?;
    }
    Ok(svg)
}

type DrawResult = Result<(), DrawingAreaErrorKind<std::io::Error>>;

/// The chart: moves against Black's win rate in percent, with Black's score lead on
/// the secondary (right) axis.
type Chart<'a> = DualCoordChartContext<
    'a,
    SVGBackend<'a>,
    Cartesian2d<RangedCoordf64, RangedCoordf64>,
    Cartesian2d<RangedCoordf64, RangedCoordf64>,
>;

/// Draws the whole graph: the chart with its axes, the lines, the mistakes and the
/// legend.
fn plot(root: &DrawingArea<SVGBackend<'_>, Shift>, data: &GraphData) -> DrawResult {
    root.fill(&WHITE)?;
    let x_max = data.moves.max(1) as f64;
    let lead_max = lead_axis_max(&data.points);
    let mut chart = ChartBuilder::on(root)
        .caption(&data.title, ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(64)
        .right_y_label_area_size(64)
        .build_cartesian_2d(0.0..x_max, 0.0..100.0)?
        .set_secondary_coord(0.0..x_max, -lead_max..lead_max);
    draw_axes(&mut chart)?;
    // Even: 50% and a lead of 0 share this line.
    chart.draw_series(LineSeries::new(
        [(0.0, 50.0), (x_max, 50.0)],
        RGBColor(150, 150, 150).stroke_width(1),
    ))?;
    let runs = contiguous_runs(&data.points);
    draw_lead_lines(&mut chart, &runs)?;
    draw_winrate_lines(&mut chart, &runs)?;
    for color in Color::ALL {
        draw_mistakes(&mut chart, data, color)?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(RGBColor(180, 180, 180))
        .label_font(("sans-serif", 13))
        .draw()?;
    Ok(())
}

/// The end of the score axis: symmetric around 0, in steps of 5 points, at least 5.
fn lead_axis_max(points: &[(usize, f64, f64)]) -> f64 {
    let biggest = points
        .iter()
        .map(|&(_, _, lead)| lead.abs())
        .fold(0.0, f64::max);
    ((biggest / 5.0).ceil() * 5.0).max(5.0)
}

/// The grid, the win rate axis on the left and the score lead axis on the right,
/// labelled in whole numbers.
fn draw_axes(chart: &mut Chart<'_>) -> DrawResult {
    let whole = |v: &f64| format!("{v:.0}");
    chart
        .configure_mesh()
        .x_desc("Move")
        .y_desc("Black's win rate (%)")
        .x_label_formatter(&whole)
        .y_label_formatter(&whole)
        .axis_desc_style(("sans-serif", 16))
        .label_style(("sans-serif", 13))
        .light_line_style(RGBColor(238, 238, 238))
        .draw()?;
    chart
        .configure_secondary_axes()
        .y_desc("Black's score lead (points)")
        .y_label_formatter(&whole)
        .axis_desc_style(("sans-serif", 16))
        .label_style(("sans-serif", 13))
        .draw()
}

/// Black's score lead, one line a run of analysed positions, on the right axis; the
/// first run carries the legend's entry.
fn draw_lead_lines(chart: &mut Chart<'_>, runs: &[Vec<(usize, f64, f64)>]) -> DrawResult {
    for (k, run) in runs.iter().enumerate() {
        let series = chart.draw_secondary_series(LineSeries::new(
            run.iter().map(|&(p, _, lead)| (p as f64, lead)),
            LEAD.stroke_width(2),
        ))?;
        if k == 0 {
            series
                .label("Black's score lead (right axis)")
                .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], LEAD.stroke_width(2)));
        }
    }
    Ok(())
}

/// Black's win rate in percent, one line a run of analysed positions; the first run
/// carries the legend's entry.
fn draw_winrate_lines(chart: &mut Chart<'_>, runs: &[Vec<(usize, f64, f64)>]) -> DrawResult {
    for (k, run) in runs.iter().enumerate() {
        let series = chart.draw_series(LineSeries::new(
            run.iter().map(|&(p, w, _)| (p as f64, 100.0 * w)),
            WINRATE.stroke_width(3),
        ))?;
        if k == 0 {
            series
                .label("Black's win rate (left axis)")
                .legend(|(x, y)| {
                    PathElement::new(vec![(x, y), (x + 24, y)], WINRATE.stroke_width(3))
                });
        }
    }
    Ok(())
}

/// The mistakes of `color` that stand on an analysed position, ringed on the win rate
/// line (the key ones numbered), with a legend entry where there is any.
fn draw_mistakes(chart: &mut Chart<'_>, data: &GraphData, color: Color) -> DrawResult {
    let (fill, label) = match color {
        Color::Black => (BLACK, "Black's mistakes"),
        Color::White => (WHITE, "White's mistakes"),
    };
    let marks: Vec<(usize, f64, bool)> = data
        .mistakes
        .iter()
        .filter(|&&(_, c, _)| c == color)
        .filter_map(|&(n, _, key)| winrate_at(&data.points, n).map(|w| (n, w, key)))
        .collect();
    let series = chart.draw_series(marks.iter().map(|&(n, w, key)| {
        // Only the key mistakes are numbered: a long game's marks would crowd.
        let label = if key { n.to_string() } else { String::new() };
        EmptyElement::at((n as f64, w))
            + Circle::new((0, 0), 6, fill.filled())
            + Circle::new((0, 0), 6, MISTAKE.stroke_width(2))
            + Text::new(label, (-8, -22), ("sans-serif", 13).into_font())
    }))?;
    if !marks.is_empty() {
        series.label(label).legend(move |(x, y)| {
            EmptyElement::at((x + 12, y))
                + Circle::new((0, 0), 6, fill.filled())
                + Circle::new((0, 0), 6, MISTAKE.stroke_width(2))
        });
    }
    Ok(())
}

/// Black's win rate in percent after `moves` moves, where that position is analysed.
fn winrate_at(points: &[(usize, f64, f64)], moves: usize) -> Option<f64> {
    points
        .iter()
        .find(|&&(p, _, _)| p == moves)
        .map(|&(_, w, _)| 100.0 * w)
}

/// The points in runs of consecutive positions: a position not analysed yet breaks
/// the lines rather than being drawn across.
fn contiguous_runs(points: &[(usize, f64, f64)]) -> Vec<Vec<(usize, f64, f64)>> {
    let mut runs: Vec<Vec<(usize, f64, f64)>> = Vec::new();
    for &point in points {
        match runs.last_mut() {
            Some(run) if run.last().is_some_and(|last| last.0 + 1 == point.0) => run.push(point),
            _ => runs.push(vec![point]),
        }
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_graph_has_its_axes_lines_and_marks() {
        let data = GraphData {
            title: "Ann (Black) vs Bob (White)".into(),
            moves: 4,
            points: vec![(0, 0.5, 0.5), (1, 0.6, 3.0), (2, 0.3, -7.0), (4, 0.2, -9.5)],
            mistakes: vec![(2, Color::Black, true)],
        };
        let svg = draw(&data).unwrap();
        assert!(svg.starts_with("<svg"), "{svg}");
        for text in [
            "Move",
            "Black&apos;s win rate (%)",
            "Black&apos;s score lead (points)",
            "Black&apos;s mistakes",
            "Ann (Black) vs Bob (White)",
        ] {
            let plain = text.replace("&apos;", "'");
            assert!(svg.contains(text) || svg.contains(&plain), "{text} missing");
        }
        assert!(!svg.contains("White&apos;s mistakes") && !svg.contains("White's mistakes"));
        assert_eq!(contiguous_runs(&data.points).len(), 2);
    }
}
