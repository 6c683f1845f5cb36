//! `tengen match --report` as a user runs it: a real 4-game 9×9 match against GNU Go
//! writes a page that headless Chromium opens without a console message, whose DOM holds
//! the plots, and whose screenshot is not blank.

use std::path::Path;
use std::process::{Command, Output};

use crate::support::programs::{CHROMIUM, GNU_GO, available, gnugo};

/// Runs headless Chromium on `page` with `args`; its output (console messages are
/// logged to stderr).
fn chromium(page: &Path, args: &[&str]) -> Output {
    Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .args(args)
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs")
}

/// The console messages in Chromium's log (`INFO:CONSOLE:…] "message", source: …`).
fn console(out: &Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter(|l| l.contains(":CONSOLE"))
        .map(str::to_string)
        .collect()
}

#[test]
#[ignore = "long: cargo test -- --include-ignored"]
fn a_real_match_report_opens_in_headless_chromium_and_is_not_blank() {
    if !available(&[GNU_GO, CHROMIUM]) {
        return;
    }
    let tengen = env!("CARGO_BIN_EXE_tengen");
    let gnugo = format!("{} --mode gtp --chinese-rules --level 1", gnugo().display());
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let out = Command::new(tengen)
        .current_dir(dir)
        .args([
            "match",
            "-e",
            &gnugo,
            "-e",
            &format!("{tengen} --playouts 200 --threads 1 --seed {{seed}}"),
            "--games",
            "4",
            "--size",
            "9",
            "--focus",
            "Tengen",
            "--sprt",
            "0,10,0.05,0.05",
            "--out",
            "m1",
            "--report",
            "report.html",
            "-q",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("Report: report.html"), "{stdout}");
    let page = dir.join("report.html");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("4 of 4 games played"), "{html}");
    for g in 1..=4 {
        assert!(
            html.contains(&format!("href=\"m1/game-000{g}.sgf\"")),
            "game {g}"
        );
    }

    // The DOM Chromium builds holds the page and its inline plots; nothing was logged.
    let dom = chromium(&page, &["--dump-dom"]);
    assert!(dom.status.success(), "{dom:?}");
    let text = String::from_utf8_lossy(&dom.stdout);
    assert!(text.contains("<h1>Match report</h1>"), "{text}");
    assert!(text.matches("<svg").count() >= 4, "fewer than 4 plots");
    assert_eq!(console(&dom), Vec::<String>::new());

    // The screenshot: the size asked for, and far from blank.
    let shot = dir.join("report.png");
    let run = chromium(
        &page,
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=1200,3000",
        ],
    );
    assert!(run.status.success(), "{run:?}");
    assert_eq!(console(&run), Vec::<String>::new());
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&shot).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size()];
    let frame = reader.next_frame(&mut pixels).unwrap();
    assert_eq!((frame.width, frame.height), (1200, 3000));
    let channels = frame.color_type.samples();
    let mut inked = 0usize;
    let mut colours = std::collections::HashSet::new();
    for px in pixels[..frame.buffer_size()].chunks(channels) {
        if px[..3].iter().any(|&c| c < 200) {
            inked += 1;
        }
        colours.insert((px[0] / 32, px[1] / 32, px[2] / 32));
    }
    let share = inked as f64 / (1200.0 * 3000.0);
    // Text, tables and plots: a few percent of the pixels, in several colours.
    assert!(
        share > 0.01,
        "only {:.3}% of the pixels are inked",
        100.0 * share
    );
    assert!(colours.len() >= 6, "{} colours", colours.len());
}
