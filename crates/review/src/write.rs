//! Writing the reviewed record: the game tree as read, with each main-line node's
//! notes added, serialized without recursion (a record may be thousands of nodes deep)
//! and in time proportional to its length; and writing a file whole or not at all.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use sgf_parse::go::Prop;
use sgf_parse::{SgfNode, SgfProp};

use crate::eval;

/// What the review adds to one node of the main line.
#[derive(Clone, Debug, Default)]
pub(crate) struct NodeNotes {
    /// Properties to add; a property of the node with the same identifier is
    /// dropped first (`SBKV`, `SBKS`: a newer analysis replaces an older one).
    pub props: Vec<Prop>,
    /// Text appended to the node's comment, after a blank line.
    pub comment: Option<String>,
    /// A move annotation (`BM`, `DO`, `TE`), added where the node has none.
    pub annotation: Option<Prop>,
    /// A variation added as the node's last child: its nodes' properties.
    pub variation: Vec<Vec<Prop>>,
}

/// Is this one of the move annotations, of which a node holds at most one?
fn is_annotation(p: &Prop) -> bool {
    matches!(p, Prop::BM(_) | Prop::DO | Prop::IT | Prop::TE(_))
}

/// Writes the game tree `root` with `notes(i)` added to the `i`-th node of its main
/// line (the root is 0). `raw[k]` holds the properties of the tree's `k`-th node (in
/// the order of the text) as they were read, and they are written so; a node without
/// them (or whose count differs from its parsed properties) is written from its
/// parsed values.
pub(crate) fn write_tree(
    root: &SgfNode<Prop>,
    raw: &[Vec<String>],
    notes: &dyn Fn(usize) -> NodeNotes,
) -> String {
    enum Task<'a> {
        Node(&'a SgfNode<Prop>, Option<usize>),
        Variation(Vec<Vec<Prop>>),
        Text(&'static str),
    }
    let mut out = String::new();
    let mut tasks = vec![
        Task::Text(")\n"),
        Task::Node(root, Some(0)),
        Task::Text("("),
    ];
    // Nodes are written in the order of the text: the `written`-th is `raw[written]`.
    let mut written = 0;
    while let Some(task) = tasks.pop() {
        match task {
            Task::Text(t) => out.push_str(t),
            Task::Variation(nodes) => {
                out.push_str("\n(");
                for props in &nodes {
                    out.push(';');
                    for p in props {
                        write_prop(&mut out, p);
                    }
                }
                out.push(')');
            }
            Task::Node(node, main) => {
                let notes = main.map(notes).unwrap_or_default();
                if main.is_some() && main != Some(0) {
                    out.push('\n');
                }
                out.push(';');
                let as_read = raw
                    .get(written)
                    .filter(|r| r.len() == node.properties.len())
                    .map(Vec::as_slice);
                written += 1;
                write_props(&mut out, node, as_read, &notes);
                let extra = usize::from(!notes.variation.is_empty());
                let children = node.children.len() + extra;
                let child_main = |k: usize| main.filter(|_| k == 0).map(|i| i + 1);
                if children == 1 && extra == 0 {
                    tasks.push(Task::Node(&node.children[0], child_main(0)));
                } else if children > 0 {
                    // Pushed last first: the first child is written first.
                    if extra == 1 {
                        tasks.push(Task::Variation(notes.variation));
                    }
                    for (k, child) in node.children.iter().enumerate().rev() {
                        tasks.push(Task::Text(")"));
                        tasks.push(Task::Node(child, child_main(k)));
                        tasks.push(Task::Text(if k == 0 { "(" } else { "\n(" }));
                    }
                }
            }
        }
    }
    out
}

/// Writes a node's properties with its notes: the review's own (`TGR`) and the
/// replaced ones dropped, the comment appended, the annotation added where none is.
/// The others are written as read (`as_read`, one text a property) where given.
fn write_props(
    out: &mut String,
    node: &SgfNode<Prop>,
    as_read: Option<&[String]>,
    notes: &NodeNotes,
) {
    let replaced = |p: &Prop| {
        let id = p.identifier();
        id == eval::PROPERTY || notes.props.iter().any(|n| n.identifier() == id)
    };
    let mut commented = false;
    let has_annotation = node.properties().any(is_annotation);
    for (k, p) in node.properties().enumerate() {
        if replaced(p) {
            continue;
        }
        match (p, &notes.comment) {
            (Prop::C(text), Some(extra)) => {
                commented = true;
                let joined = if text.text.trim().is_empty() {
                    extra.clone()
                } else {
                    format!("{}\n\n{extra}", text.text.trim_end())
                };
                write_prop(out, &Prop::C(sgf_parse::Text { text: joined }));
            }
            _ => match as_read.and_then(|r| r.get(k)) {
                Some(text) => out.push_str(text),
                None => write_prop(out, p),
            },
        }
    }
    for p in &notes.props {
        write_prop(out, p);
    }
    if let (Some(a), false) = (&notes.annotation, has_annotation) {
        write_prop(out, a);
    }
    if let (Some(extra), false) = (&notes.comment, commented) {
        write_prop(
            out,
            &Prop::C(sgf_parse::Text {
                text: extra.clone(),
            }),
        );
    }
}

/// Writes one property. The values of properties the parser does not know (and of
/// known ones it could not read) are kept unescaped: they are escaped here. A comment
/// is written with `\` and `]` escaped, not `:` (a comment is not a composed value).
fn write_prop(out: &mut String, p: &Prop) {
    match p {
        Prop::C(text) => {
            let _ = write!(out, "C[{}]", escape(&text.text));
        }
        Prop::Unknown(id, values) | Prop::Invalid(id, values) => {
            out.push_str(id);
            for v in values {
                let _ = write!(out, "[{}]", escape(v));
            }
        }
        _ => {
            let _ = write!(out, "{p}");
        }
    }
}

/// Escapes `\` and `]` for an SGF property value.
fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

/// A property that is not one the parser knows: `SBKV[55.2]`, `TGR[…]`.
pub(crate) fn private(id: &str, value: String) -> Prop {
    Prop::Unknown(id.to_string(), vec![value])
}

/// Writes `bytes` to `path` whole or not at all: into a temporary file beside it
/// (`.NAME.tmp`), flushed to disk, then renamed over `path`. A process killed at any
/// moment leaves `path` as it was before or as it is after.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = temporary_path(path);
    let result = (|| {
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_data()?;
        drop(file);
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Checks that `path` can be written by [`write_atomically`]: its folder takes a new
/// file, and `path` is not a folder. Nothing is left behind.
pub fn check_writable(path: &Path) -> std::io::Result<()> {
    if path.is_dir() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::IsADirectory,
            "is a folder",
        ));
    }
    let tmp = temporary_path(path);
    std::fs::File::create(&tmp)?;
    std::fs::remove_file(&tmp)
}

/// `.NAME.tmp` beside `path`.
fn temporary_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(|| "review".into(), |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.tmp"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> SgfNode<Prop> {
        sgf_parse::go::parse(text).unwrap().remove(0)
    }

    #[test]
    fn a_tree_without_notes_is_written_as_read() {
        let text = "(;SZ[9]C[a\\]b]XX[p\\\\q\\]r];B[ee](;W[cc];B[dd](;W[ff])(;W[gg]))(;W[dc]))";
        let root = parsed(text);
        // From the parsed values alone, and from the text as read.
        let written = write_tree(&root, &[], &|_| NodeNotes::default());
        assert_eq!(parsed(&written), root);
        assert!(written.contains("XX[p\\\\q\\]r]"), "{written}");
        let raw = crate::record::raw_properties(text).unwrap();
        let written = write_tree(&root, &raw, &|_| NodeNotes::default());
        assert_eq!(written.replace('\n', ""), text);
    }

    #[test]
    fn properties_are_written_as_they_were_read() {
        // The parsed values would be written `SZ[19:19]`, the stones in any order, the
        // real `6.50` as `6.5`, the old-style `AddWhite` as `AW`; a malformed `AP` and an
        // empty `DT` as the parser kept them.
        let text = "(;GM[1]FF[4]SZ[19]KM[6.50]AP[Tygem:1.0:beta]DT[]AB[pd][dp]AddWhite[dd] \
                    [pp]PB[Lee\\: Sedol]\n;B[qq]TM[ 3600 ];W[]C[done])";
        let root = parsed(text);
        let raw = crate::record::raw_properties(text).unwrap();
        assert_eq!(
            raw[0],
            [
                "GM[1]",
                "FF[4]",
                "SZ[19]",
                "KM[6.50]",
                "AP[Tygem:1.0:beta]",
                "DT[]",
                "AB[pd][dp]",
                "AddWhite[dd] [pp]",
                "PB[Lee\\: Sedol]"
            ]
        );
        assert_eq!(raw[1], ["B[qq]", "TM[ 3600 ]"]);
        let written = write_tree(&root, &raw, &|_| NodeNotes::default());
        for property in raw.iter().flatten() {
            assert!(written.contains(property.as_str()), "{property}: {written}");
        }
        assert_eq!(parsed(&written), root);
        // A note's comment is appended and its properties added; the rest stays.
        let notes = |i: usize| NodeNotes {
            props: vec![private("SBKV", "50".into())],
            comment: Some(format!("note {i}")),
            ..NodeNotes::default()
        };
        let written = write_tree(&root, &raw, &notes);
        assert!(
            written.starts_with("(;GM[1]FF[4]SZ[19]KM[6.50]AP[Tygem:1.0:beta]"),
            "{written}"
        );
        assert!(
            written.contains("W[]C[done\n\nnote 2]SBKV[50]"),
            "{written}"
        );
    }

    #[test]
    fn notes_go_on_the_main_line_and_keep_what_was_there() {
        let root = parsed("(;SZ[9]C[hello];B[ee]SBKV[1]TGR[old](;W[cc]BM[1])(;W[dc]))");
        let notes = |i: usize| NodeNotes {
            props: vec![private("SBKV", format!("{i}"))],
            comment: Some(format!("note {i}")),
            annotation: Some(Prop::TE(sgf_parse::Double::One)),
            variation: if i == 1 {
                vec![vec![Prop::W(sgf_parse::go::Move::Pass)]]
            } else {
                Vec::new()
            },
        };
        let written = parsed(&write_tree(&root, &[], &notes));
        let line: Vec<&SgfNode<Prop>> = written.main_variation().collect();
        assert_eq!(line.len(), 3);
        assert_eq!(
            line[0].get_property("C"),
            Some(&Prop::C(sgf_parse::Text {
                text: "hello\n\nnote 0".into()
            }))
        );
        assert_eq!(
            line[1].get_property("SBKV"),
            Some(&private("SBKV", "1".into()))
        );
        assert_eq!(line[1].get_property("TGR"), None);
        // The node's own BM stays; the TE is not added beside it.
        assert!(line[2].get_property("BM").is_some());
        assert!(line[2].get_property("TE").is_none());
        // The old variation stays second; the new one comes last.
        let children: Vec<_> = line[1].children().collect();
        assert_eq!(children.len(), 3);
        assert!(children[1].get_property("W").is_some());
        assert_eq!(
            children[2].get_property("W"),
            Some(&Prop::W(sgf_parse::go::Move::Pass))
        );
        // Nodes off the main line get no notes.
        assert_eq!(children[1].get_property("C"), None);
    }

    #[test]
    fn a_deep_record_is_written_without_recursion() {
        let text = format!("(;SZ[9]{})", ";B[];W[]".repeat(2_000));
        let root = parsed(&text);
        let written = write_tree(&root, &[], &|_| NodeNotes::default());
        assert_eq!(written.matches(';').count(), 4_001);
    }

    #[test]
    fn a_file_is_replaced_whole() {
        let dir = std::env::temp_dir().join(format!("tengen-review-write-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("out.sgf");
        write_atomically(&path, b"one").unwrap();
        write_atomically(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        check_writable(&path).unwrap();
        assert!(check_writable(&dir).is_err());
        assert!(check_writable(&dir.join("missing/out.sgf")).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
