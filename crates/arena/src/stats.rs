//! Match statistics: win/draw/loss counts, the Wilson interval of the score, the Elo
//! difference with its interval, and the sequential probability ratio test (SPRT).

use std::fmt;
use std::str::FromStr;

use crate::error::BadSpec;

/// The two-sided 95% normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses from one side's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games won.
    pub wins: u32,
    /// Games drawn (jigo).
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Wdl {
    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The score per game, a draw counting half: `(W + D/2) / N`; `None` with no games.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(n))
    }

    /// The variance of one game's score (0, ½ or 1) around the mean score.
    pub fn variance(&self) -> Option<f64> {
        let p = self.score()?;
        let n = f64::from(self.games());
        Some(
            (f64::from(self.wins) * (1.0 - p).powi(2)
                + f64::from(self.draws) * (0.5 - p).powi(2)
                + f64::from(self.losses) * p.powi(2))
                / n,
        )
    }

    /// The same counts from the other side.
    pub fn flipped(&self) -> Wdl {
        Wdl {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }
}

/// The Wilson score interval for a proportion `p` observed over `n` trials, at normal
/// quantile `z`; `None` for `n == 0`.
pub fn wilson(p: f64, n: u32, z: f64) -> Option<(f64, f64)> {
    if n == 0 {
        return None;
    }
    let n = f64::from(n);
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    // At p = 0 or 1 one end is exactly 0 or 1; say so despite rounding.
    let low = if p <= 0.0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let high = if p >= 1.0 {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    Some((low, high))
}

/// The Elo difference that gives an expected score `p` (logistic model):
/// `-400 log10(1/p - 1)`; infinite at 0 and 1.
pub fn elo_from_score(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

/// The expected score of a player `elo` points stronger: `1 / (1 + 10^(-elo/400))`.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo difference with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The point estimate.
    pub elo: f64,
    /// Lower end of the 95% interval (may be −∞).
    pub low: f64,
    /// Upper end of the 95% interval (may be +∞).
    pub high: f64,
}

/// The Elo difference of the side whose counts these are, with a 95% interval from the
/// normal approximation of the mean score (trinomial variance); where every game had
/// the same result (variance 0) the interval comes from the Wilson interval of the
/// score instead. `None` with no games.
pub fn elo(wdl: &Wdl) -> Option<EloEstimate> {
    let p = wdl.score()?;
    let var = wdl.variance()?;
    let (lo, hi) = if var > 1e-12 {
        let se = (var / f64::from(wdl.games())).sqrt();
        (p - Z95 * se, p + Z95 * se)
    } else {
        wilson(p, wdl.games(), Z95)?
    };
    Some(EloEstimate {
        elo: elo_from_score(p),
        low: elo_from_score(lo),
        high: elo_from_score(hi),
    })
}

/// An SPRT: H0 "the Elo difference is `elo0`" against H1 "it is `elo1`", with error
/// rates `alpha` (accepting H1 wrongly) and `beta` (accepting H0 wrongly).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

/// What the SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// Keep playing.
    Continue,
    /// The lower bound was crossed: H0 accepted (no gain of `elo1`).
    AcceptH0,
    /// The upper bound was crossed: H1 accepted.
    AcceptH1,
}

impl fmt::Display for SprtDecision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtDecision::Continue => "continue",
            SprtDecision::AcceptH0 => "H0 accepted",
            SprtDecision::AcceptH1 => "H1 accepted",
        })
    }
}

/// The form of an `--sprt` spec.
const SPRT_FORM: &str = "elo0,elo1,alpha,beta with elo0 < elo1 and 0 < alpha, beta < 0.5 \
                         (e.g. 0,10,0.05,0.05)";

impl FromStr for Sprt {
    type Err = BadSpec;

    fn from_str(s: &str) -> Result<Sprt, BadSpec> {
        let err = || BadSpec::new("SPRT spec", s, SPRT_FORM);
        let v: Vec<f64> = s
            .split(',')
            .map(|x| x.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| err())?;
        let [elo0, elo1, alpha, beta] = v[..] else {
            return Err(err());
        };
        let rate_ok = |r: f64| r > 0.0 && r < 0.5;
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1 && rate_ok(alpha) && rate_ok(beta))
        {
            return Err(err());
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }
}

impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{},{},{},{}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

impl Sprt {
    /// The stopping bounds `(ln(β/(1−α)), ln((1−β)/α))`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio by the usual normal approximation (as fishtest's GSPRT):
    /// `N (s1 − s0)(2 x̄ − s0 − s1) / (2 σ²)` with `s0`, `s1` the scores of `elo0`,
    /// `elo1`, `x̄` the mean score and `σ²` its per-game variance. While every result is
    /// the same (σ² = 0) the variance a win/loss game has between the hypotheses,
    /// `s̄(1 − s̄)` with `s̄ = (s0 + s1)/2`, stands in. 0 with no games.
    pub fn llr(&self, wdl: &Wdl) -> f64 {
        let (Some(p), Some(var)) = (wdl.score(), wdl.variance()) else {
            return 0.0;
        };
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        let var = if var > 1e-12 {
            var
        } else {
            let mid = (s0 + s1) / 2.0;
            mid * (1.0 - mid)
        };
        f64::from(wdl.games()) * (s1 - s0) * (2.0 * p - s0 - s1) / (2.0 * var)
    }

    /// The decision for these counts.
    pub fn decide(&self, wdl: &Wdl) -> SprtDecision {
        let llr = self.llr(wdl);
        let (low, high) = self.bounds();
        if llr >= high {
            SprtDecision::AcceptH1
        } else if llr <= low {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6
    }

    // Hand computation for W=60, D=20, L=20 (N=100):
    //   score x = (60 + 10)/100 = 0.7, Elo = -400 log10(1/0.7 - 1) = 147.190714
    //   variance = (60·0.3² + 20·0.2² + 20·0.7²)/100 = (5.4 + 0.8 + 9.8)/100 = 0.16
    //   se = sqrt(0.16/100) = 0.04, x ± 1.96·se = 0.621601 .. 0.778399
    //   → Elo 86.225015 .. 218.251778
    const WDL: Wdl = Wdl {
        wins: 60,
        draws: 20,
        losses: 20,
    };

    #[test]
    fn score_and_elo() {
        assert_eq!(WDL.games(), 100);
        assert!(close(WDL.score().unwrap(), 0.7));
        assert!(close(WDL.variance().unwrap(), 0.16));
        let e = elo(&WDL).unwrap();
        assert!(close(e.elo, 147.190714), "{e:?}");
        assert!(close(e.low, 86.225015), "{e:?}");
        assert!(close(e.high, 218.251778), "{e:?}");
        assert!(close(elo_from_score(0.5), 0.0));
        assert!(close(score_from_elo(400.0), 10.0 / 11.0));
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo(&Wdl::default()), None);
        // 10 wins out of 10: Wilson lower end 0.722467 → Elo 166.201527.
        let sweep = elo(&Wdl {
            wins: 10,
            draws: 0,
            losses: 0,
        })
        .unwrap();
        assert_eq!((sweep.elo, sweep.high), (f64::INFINITY, f64::INFINITY));
        assert!(close(sweep.low, 166.201527), "{sweep:?}");
        let flipped = elo(&WDL.flipped()).unwrap();
        assert!(close(flipped.elo, -147.190714));
    }

    // Wilson for p = 0.7, n = 100, z = 1.959964:
    //   centre = (0.7 + z²/200)/(1 + z²/100) = 0.692604
    //   half = z·sqrt(0.0021 + z²/40000)/(1 + z²/100) = 0.088453 → 0.604151 .. 0.781051
    #[test]
    fn wilson_interval() {
        let (lo, hi) = wilson(0.7, 100, Z95).unwrap();
        assert!(close(lo, 0.604151), "{lo}");
        assert!(close(hi, 0.781051), "{hi}");
        let (lo, hi) = wilson(1.0, 10, Z95).unwrap();
        assert!(lo > 0.69 && lo < 0.73 && close(hi, 1.0), "{lo} {hi}");
        assert_eq!(wilson(0.5, 0, Z95), None);
    }

    // SPRT 0,10,0.05,0.05: bounds ±ln(19) = ±2.944439;
    //   s0 = 0.5, s1 = 1/(1 + 10^(-10/400)) = 0.514387
    //   LLR(60/20/20) = 100·0.014387·(1.4 − 1.014387)/(2·0.16) = 1.733713
    //   LLR(10/0/10)  = 20·0.014387·(1.0 − 1.014387)/(2·0.25) = −0.008280
    #[test]
    fn sprt() {
        let s: Sprt = "0,10,0.05,0.05".parse().unwrap();
        let (lo, hi) = s.bounds();
        assert!(close(lo, -2.944439) && close(hi, 2.944439));
        assert!(close(s.llr(&WDL), 1.733713), "{}", s.llr(&WDL));
        let even = Wdl {
            wins: 10,
            draws: 0,
            losses: 10,
        };
        assert!(close(s.llr(&even), -0.008280), "{}", s.llr(&even));
        assert_eq!(s.decide(&WDL), SprtDecision::Continue);
        let big = Wdl {
            wins: 120,
            draws: 40,
            losses: 40,
        };
        // Twice the games at the same rates doubles the LLR: 3.467427 > 2.944439.
        assert!(close(s.llr(&big), 2.0 * 1.733713));
        assert_eq!(s.decide(&big), SprtDecision::AcceptH1);
        assert_eq!(s.decide(&big.flipped()), SprtDecision::AcceptH0);
        assert_eq!(s.llr(&Wdl::default()), 0.0);
        // 30 straight wins: σ² = 0, so s̄(1 − s̄) = 0.507194·0.492806 = 0.249948 stands in:
        //   LLR = 30·0.014387·(2 − 1.014387)/(2·0.249948) = 0.850988
        let wins = Wdl {
            wins: 30,
            draws: 0,
            losses: 0,
        };
        assert!(close(s.llr(&wins), 0.850988), "{}", s.llr(&wins));
        for bad in [
            "",
            "0,10,0.05",
            "10,0,0.05,0.05",
            "0,10,0,0.05",
            "0,10,0.05,0.7",
            "a,b,c,d",
        ] {
            assert!(bad.parse::<Sprt>().is_err(), "{bad}");
        }
        assert_eq!(s.to_string(), "0,10,0.05,0.05");
    }
}
