//! Unit tests of format detection and of every history reader.

use super::*;

fn records(format: Format, text: &[u8]) -> Vec<Record> {
    let mut out = Vec::new();
    read(format, text, |r| out.push(r)).unwrap();
    out
}

fn commands(records: &[Record]) -> Vec<String> {
    records
        .iter()
        .filter_map(|r| match &r.kind {
            Kind::Command(c) => Some(c.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn bash_with_timestamps() {
    let r = records(
        Format::Bash,
        b"#1672918999\ngit reset\n#1672919006\ngit clean -dxf\n#-377705116800\ncd ../\n\xff\n",
    );
    assert_eq!(commands(&r), vec!["git reset", "git clean -dxf"]);
    assert_eq!(r[0].timestamp.as_deref(), Some("1672918999"));
    assert!(matches!(&r[2].kind, Kind::Broken(why) if why.contains("out of range")));
    assert_eq!(r[2].line, 5);
    assert_eq!(r[2].salvage, None);
    // `cd ../` and the line that is not UTF-8 are one entry: unreadable,
    // read lossily for what it may hold.
    assert_eq!(r[3].timestamp, None);
    assert_eq!(r[3].line, 6);
    assert!(matches!(r[3].kind, Kind::Broken(_)));
    assert_eq!(r[3].salvage, Some(vec!["cd ../\n\u{fffd}".to_string()]));
    assert_eq!(r.len(), 4);
}

#[test]
fn zsh_extended_continuations_and_metafied_bytes() {
    let r = records(Format::Zsh, b": 1613322469:0;cargo install atuin\n: 1613322469:10;cargo install atuin; \\\\\ncargo update\n");
    assert_eq!(
        commands(&r),
        vec![
            "cargo install atuin",
            "cargo install atuin; \\\ncargo update"
        ]
    );
    // `\x83` + (byte ^ 32): "é" is C3 A9; A9 ^ 32 = 89.
    let r = records(Format::Zsh, b"echo caf\xc3\x83\x89\n");
    assert_eq!(commands(&r), vec!["echo café"]);
    let r = records(Format::Zsh, b": -377705116800:0;cargo update\n");
    assert_eq!(commands(&r), vec!["cargo update"]);
    assert!(matches!(&r[0].kind, Kind::Broken(_)));
}

#[test]
fn fish_entries() {
    let text = b"- cmd: history --help\n  when: 1639162832\n- cmd: cat ~/.bash_history\n  when: 1639162851\n  paths:\n    - ~/.bash_history\nERROR\n- CORRUPTED: ENTRY\n- cmd: echo \"foo\" \\\\\\n'bar'\n  when: 999999999999999\n";
    let r = records(Format::Fish, text);
    assert_eq!(
        commands(&r),
        vec![
            "history --help",
            "cat ~/.bash_history",
            "echo \"foo\" \\\n'bar'"
        ]
    );
    let broken = r
        .iter()
        .filter(|r| matches!(r.kind, Kind::Broken(_)))
        .count();
    assert_eq!(broken, 3, "{r:?}");
}

#[test]
fn jsonl_and_sessions() {
    let r = records(Format::Jsonl, b"\"ls\"\n{\"session\":\"s1\",\"step\":3,\"cmd\":\"git status\"}\n{\"command\":\"pwd\",\"cwd\":\"/p\"}\n{broken\n[1]\n");
    assert_eq!(commands(&r), vec!["ls", "git status", "pwd"]);
    assert_eq!(r[1].session.as_deref(), Some("s1"));
    assert_eq!(r[2].cwd.as_deref(), Some(Path::new("/p")));
    assert_eq!(
        r.iter()
            .filter(|r| matches!(r.kind, Kind::Broken(_)))
            .count(),
        2
    );
}

/// Objects read field by field: a `null` command beside a `cmd` is no
/// command, an argv array is joined with shell quoting, the first
/// text-or-number session key wins, a line that is not UTF-8 anywhere
/// is broken, and a repeated key is judged each time.
#[test]
fn jsonl_fields() {
    let r = records(
        Format::Jsonl,
        b"{\"command\":null,\"cmd\":\"ls\"}\n{\"cmd\":\"ls\",\"session\":true,\"sessionId\":7,\"time\":1.5}\n{\"cmd\":\"pwd\",\"step\":\"\xff\"}\n{\"command\":[\"ls\"]}\n{\"cmd\":\"a\",\"cmd\":\"b\"}\n",
    );
    assert_eq!(r[0].kind, Kind::Command("ls".into()));
    assert_eq!(r[1].kind, Kind::Command("ls".into()));
    assert_eq!(r[1].session.as_deref(), Some("7"));
    assert_eq!(r[1].timestamp.as_deref(), Some("1.5"));
    assert_eq!(r[2].kind, Kind::Broken("is not valid UTF-8".into()));
    assert!(r[2].salvage.is_some());
    assert_eq!(r[3].kind, Kind::Command("ls".into()));
    assert_eq!(r[4].kind, Kind::Command("a".into()));
    assert_eq!(r[5].kind, Kind::Command("b".into()));
    assert_eq!(r.len(), 6);
    let r = records(
        Format::Jsonl,
        br#"{"command":null}
{"argv":["bash","-lc","rm -rf ~"],"step":1}
{"command":["rm","-rf","it's here"]}
{"command":{"x":1}}
{"command":"rm -rf ~
{"shell":"rm -rf ~","session":"s"}
[1]
"#,
    );
    assert!(matches!(r[0].kind, Kind::Broken(_)) && r[0].salvage.is_none());
    assert_eq!(r[1].kind, Kind::Command("bash -lc 'rm -rf ~'".into()));
    assert_eq!(r[2].kind, Kind::Command("rm -rf 'it'\\''s here'".into()));
    assert!(matches!(r[3].kind, Kind::Broken(_)) && r[3].salvage == Some(vec![]));
    assert_eq!(r[4].salvage, Some(vec!["rm -rf ~".to_string()]));
    assert_eq!(r[5].salvage, Some(vec!["rm -rf ~".to_string()]));
    assert!(matches!(r[6].kind, Kind::Broken(_)) && r[6].salvage.is_none());
}

#[test]
fn claude_transcript() {
    let text = br#"{"type":"assistant","sessionId":"abc","cwd":"/home/u/p","timestamp":"2025-01-01T00:00:00Z","message":{"content":[{"type":"text","text":"hi"},{"type":"tool_use","name":"Bash","input":{"command":"git status"}},{"type":"tool_use","name":"Write","input":{"file_path":"/home/u/p/.env","content":"x"}}]}}
{"type":"user","sessionId":"abc","message":{"content":"<bash-input>rm -rf build</bash-input>"}}
{"type":"summary","summary":"x"}
{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Bash","input":{}}]}}
{not json
"#;
    let r = records(Format::Claude, text);
    assert_eq!(r[0].kind, Kind::Command("git status".into()));
    assert_eq!(r[0].session.as_deref(), Some("abc"));
    assert_eq!(r[0].cwd.as_deref(), Some(Path::new("/home/u/p")));
    assert_eq!(
        r[1].kind,
        Kind::Edit {
            tool: "Write".into(),
            path: "/home/u/p/.env".into()
        }
    );
    assert_eq!(r[2].kind, Kind::Typed("rm -rf build".into()));
    assert!(matches!(r[3].kind, Kind::Broken(_)));
    assert!(matches!(r[4].kind, Kind::Broken(_)));
    assert_eq!(r.len(), 5);
}

#[test]
fn bash_multi_line_entries_are_kept_whole() {
    let r = records(
        Format::Bash,
        b"ls\npwd\n#1700000000\ncat <<EOF > notes.md\nrm -rf ~\n\nEOF\n#1700000001\necho \"a\nb\"\n#1700000002\ngit status\n\n",
    );
    assert_eq!(
        commands(&r),
        vec![
            "ls",
            "pwd",
            "cat <<EOF > notes.md\nrm -rf ~\n\nEOF",
            "echo \"a\nb\"",
            "git status"
        ]
    );
    assert_eq!(r[2].line, 4);
    assert_eq!(r[2].timestamp.as_deref(), Some("1700000000"));
    assert_eq!(r[4].timestamp.as_deref(), Some("1700000002"));
    // A line that is not UTF-8 makes its whole entry unreadable, read
    // lossily for what it may hold.
    let r = records(Format::Bash, b"#1700000000\nrm -rf ~ \xff\necho\n");
    assert!(matches!(r[0].kind, Kind::Broken(_)));
    assert_eq!(
        r[0].salvage,
        Some(vec!["rm -rf ~ \u{fffd}\necho".to_string()])
    );
}

#[test]
fn claude_sub_agents_reads_and_searches() {
    let text = br#"{"type":"progress","sessionId":"s","data":{"type":"agent_progress","agentId":"a","message":{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Bash","input":{"command":"rm -rf ~"}}]}}}}
{"type":"assistant","isSidechain":true,"message":{"content":[{"type":"tool_use","name":"Read","input":{"file_path":"/p/.env"}},{"type":"tool_use","name":"Grep","input":{"pattern":"x","glob":"*.pem"}},{"type":"tool_use","name":"Glob","input":{"pattern":"*"}}]}}
{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Grep","input":{"path":7}}]}}
{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Bash","input":{"command":"git st
{"type":"summary","summary":"cut sh
"#;
    let r = records(Format::Claude, text);
    assert_eq!(r[0].kind, Kind::Command("rm -rf ~".into()));
    assert_eq!(r[0].session.as_deref(), Some("s"));
    assert_eq!(
        r[1].kind,
        Kind::Edit {
            tool: "Read".into(),
            path: "/p/.env".into()
        }
    );
    assert_eq!(
        r[2].kind,
        Kind::Search {
            tool: "Grep".into(),
            path: None,
            glob: Some("*.pem".into())
        }
    );
    assert!(matches!(r[3].kind, Kind::Broken(_)) && r[3].salvage.is_some());
    assert_eq!(r[4].salvage, Some(vec!["git st".to_string()]));
    assert!(matches!(r[5].kind, Kind::Broken(_)) && r[5].salvage.is_none());
    assert_eq!(r.len(), 6);
}

#[test]
fn detection_looks_past_a_long_head() {
    let mut head = String::new();
    for i in 0..500 {
        head.push_str(&format!("{{\"type\":\"summary\",\"summary\":\"s{i}\"}}\n"));
    }
    head.push_str("{\"type\":\"assistant\",\"message\":{\"content\":[]}}\n");
    assert_eq!(detect(None, head.as_bytes()), Format::Claude);
    let mut head = String::new();
    for i in 0..500 {
        head.push_str(&format!("echo {i}\n"));
    }
    head.push_str("#1700000000\nls\n");
    assert_eq!(detect(None, head.as_bytes()), Format::Bash);
    // Past the bound nothing decides: the first line's guess holds.
    let mut head = String::new();
    for i in 0..DETECT_LINES {
        head.push_str(&format!("echo {i}\n"));
    }
    head.push_str("#1700000000\nls\n");
    assert_eq!(detect(None, head.as_bytes()), Format::Lines);
    // A JSONL object with a command decides even beside `sessionId`.
    assert_eq!(
        detect(None, b"{\"sessionId\":\"x\",\"command\":\"ls\"}\n"),
        Format::Jsonl
    );
    // A shell group is not JSON.
    assert_eq!(detect(None, b"{ ls; }\n#1700000000\nls\n"), Format::Bash);
}

#[test]
fn open_keeps_every_byte_of_a_long_head() {
    let mut text = String::new();
    for i in 0..3000 {
        text.push_str(&format!(
            "{{\"type\":\"summary\",\"summary\":\"{}\"}}\n",
            "x".repeat(i % 700)
        ));
    }
    text.push_str("{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"tool_use\",\"name\":\"Bash\",\"input\":{\"command\":\"ls\"}}]}}\n");
    let reader = io::BufReader::new(io::Cursor::new(text.clone().into_bytes()));
    let (format, mut reader) = open(None, reader, None).unwrap();
    assert_eq!(format, Format::Claude);
    let mut back = String::new();
    io::Read::read_to_string(&mut reader, &mut back).unwrap();
    assert_eq!(back, text);
}

#[test]
fn detection() {
    assert_eq!(
        detect(Some(Path::new("/h/.zsh_history")), b"ls\n"),
        Format::Zsh
    );
    assert_eq!(detect(None, b": 1613322469:0;ls\n"), Format::Zsh);
    assert_eq!(detect(None, b"- cmd: ls\n  when: 1\n"), Format::Fish);
    assert_eq!(detect(None, b"#1672918999\nls\n"), Format::Bash);
    assert_eq!(
        detect(None, b"{\"type\":\"assistant\",\"sessionId\":\"x\"}\n"),
        Format::Claude
    );
    assert_eq!(
        detect(None, b"{\"session\":\"s\",\"step\":1,\"cmd\":\"ls\"}\n"),
        Format::Jsonl
    );
    assert_eq!(detect(None, b"\"ls\"\n"), Format::Jsonl);
    assert_eq!(detect(None, b"ls -la\n"), Format::Lines);
    assert_eq!(Format::named("sessions"), Some(Format::Jsonl));
}
