//! Questions a running tool asks (an MCP server's elicitation): shown with the waiting
//! calls, asked field by field on a terminal, or answered later with `tackle approve ID
//! --answer JSON`.

use rustyline::DefaultEditor;
use serde_json::{Map, Value};
use tackle_core::{InputAction, InputRequest, InputResponse};

use crate::failure::Failure;

/// The fields of a question's form, in the order given: name, schema, required.
fn fields(request: &InputRequest) -> Vec<(&str, &Value, bool)> {
    let required: Vec<&str> =
        request.schema["required"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
    request.schema["properties"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(name, field)| (name.as_str(), field, required.contains(&name.as_str())))
        .collect()
}

/// The values a field may take, with their labels: `enum` (with `enumNames`), `oneOf` of
/// `const`s, or the same inside `items` for a multiple choice.
fn choices(field: &Value) -> Vec<(Value, String)> {
    let field = if field["type"] == "array" { &field["items"] } else { field };
    if let Some(values) = field["enum"].as_array() {
        let names = field["enumNames"].as_array();
        return values
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let label = names.and_then(|n| n.get(i)).and_then(Value::as_str);
                (v.clone(), label.map_or_else(|| plain(v), str::to_owned))
            })
            .collect();
    }
    ["oneOf", "anyOf"]
        .iter()
        .filter_map(|key| field[*key].as_array())
        .flatten()
        .filter_map(|option| {
            let value = option.get("const")?.clone();
            let label = option["title"].as_str().map_or_else(|| plain(&value), str::to_owned);
            Some((value, label))
        })
        .collect()
}

fn plain(value: &Value) -> String {
    value.as_str().map_or_else(|| value.to_string(), str::to_owned)
}

/// The lines that describe a field: its title or name, whether it is required, its
/// description, its choices and its default.
fn describe(name: &str, field: &Value, required: bool) -> Vec<String> {
    let title = field["title"].as_str().unwrap_or(name);
    let mut head = format!("{title} ({name}");
    if let Some(kind) = field["type"].as_str() {
        head.push_str(&format!(", {kind}"));
    }
    if let Some(format) = field["format"].as_str() {
        head.push_str(&format!(", {format}"));
    }
    head.push_str(if required { ", required)" } else { ")" });
    if let Some(description) = field["description"].as_str() {
        head.push_str(&format!(": {description}"));
    }
    let mut lines = vec![head];
    for (i, (_, label)) in choices(field).iter().enumerate() {
        lines.push(format!("   {}) {label}", i + 1));
    }
    if let Some(default) = field.get("default") {
        lines.push(format!("   default: {default}"));
    }
    lines
}

/// The lines that show a waiting question.
pub(crate) fn show(request: &InputRequest) -> Vec<String> {
    let mut lines = vec![request.message.clone()];
    for (name, field, required) in fields(request) {
        lines.extend(describe(name, field, required));
    }
    lines
}

/// The value a typed line gives a field: a number of a choice (or several, comma-separated,
/// for a multiple choice) or the choice itself, a number, yes or no, or text. An empty line
/// gives the default, or nothing. An error says what fits.
pub(crate) fn parse(field: &Value, line: &str) -> Result<Option<Value>, String> {
    let line = line.trim();
    if line.is_empty() {
        return Ok(field.get("default").cloned());
    }
    let options = choices(field);
    let pick = |token: &str| -> Result<Value, String> {
        if let Some(n) = token.parse::<usize>().ok().filter(|n| (1..=options.len()).contains(n)) {
            return Ok(options[n - 1].0.clone());
        }
        options
            .iter()
            .find(|(value, label)| plain(value) == token || label.eq_ignore_ascii_case(token))
            .map(|(value, _)| value.clone())
            .ok_or_else(|| format!("pick one of 1 to {}", options.len()))
    };
    let value = match field["type"].as_str() {
        Some("array") if !options.is_empty() => {
            Value::Array(line.split(',').map(|t| pick(t.trim())).collect::<Result<_, _>>()?)
        }
        _ if !options.is_empty() => pick(line)?,
        Some("integer") => Value::from(line.parse::<i64>().map_err(|_| "give a whole number".to_owned())?),
        Some("number") => {
            let n = line.parse::<f64>().map_err(|_| "give a number".to_owned())?;
            serde_json::Number::from_f64(n).map(Value::Number).ok_or("give a finite number")?
        }
        Some("boolean") => match line.to_ascii_lowercase().as_str() {
            "y" | "yes" | "true" => Value::Bool(true),
            "n" | "no" | "false" => Value::Bool(false),
            _ => return Err("answer yes or no".into()),
        },
        _ => Value::String(line.to_owned()),
    };
    Ok(Some(value))
}

/// Asks the question field by field; each answer is checked against its field and asked
/// again when it does not fit. `/decline` or `/cancel` at any field answers so; `None`
/// when input ends (the run stays waiting).
pub(crate) async fn ask(
    mut editor: DefaultEditor,
    request: &InputRequest,
) -> Result<(DefaultEditor, Option<InputResponse>), Failure> {
    crate::eprint_line(&request.message);
    crate::eprint_line("  (an empty line takes the default or skips; /decline or /cancel answers so)");
    let mut content = Map::new();
    for (name, field, required) in fields(request) {
        for line in describe(name, field, required) {
            crate::eprint_line(&format!("  {line}"));
        }
        loop {
            let (next, line) = crate::chat::read_line(editor, "  > ").await?;
            editor = next;
            let Some(line) = line else { return Ok((editor, None)) };
            match line.trim() {
                "/decline" => return Ok((editor, Some(InputResponse::decline()))),
                "/cancel" => {
                    return Ok((editor, Some(InputResponse { action: InputAction::Cancel, content: None })));
                }
                _ => {}
            }
            let value = match parse(field, &line) {
                Ok(value) => value,
                Err(why) => {
                    crate::eprint_line(&format!("  {why}; try again"));
                    continue;
                }
            };
            // Checked alone, against its own field.
            let one = single(name, field, required);
            let answer = InputResponse::accept(value.iter().map(|v| (name.to_owned(), v.clone())).collect());
            match tackle_tools::check_input(&one, &answer) {
                Ok(()) => {
                    if let Some(value) = value {
                        content.insert(name.to_owned(), value);
                    }
                    break;
                }
                Err(why) => crate::eprint_line(&format!("  {why}; try again")),
            }
        }
    }
    Ok((editor, Some(InputResponse::accept(content))))
}

/// A question of one field.
fn single(name: &str, field: &Value, required: bool) -> InputRequest {
    let required = if required { vec![name] } else { Vec::new() };
    InputRequest::new(
        String::new(),
        serde_json::json!({"type": "object", "properties": {name: field}, "required": required}),
        Value::Null,
    )
}

/// The answer `--answer` gives: a JSON object of field values, checked against the form.
pub(crate) fn from_json(request: &InputRequest, text: &str) -> Result<InputResponse, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| format!("--answer is not JSON: {e}"))?;
    let Value::Object(content) = value else {
        return Err("--answer must be a JSON object of the form's fields".into());
    };
    let response = tackle_tools::with_defaults(request, InputResponse::accept(content));
    tackle_tools::check_input(request, &response).map_err(|e| format!("--answer: {e}"))?;
    Ok(response)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn typed_lines_become_values_of_their_fields() {
        let integer = json!({"type": "integer", "default": 42});
        assert_eq!(parse(&integer, " 7 "), Ok(Some(json!(7))));
        assert_eq!(parse(&integer, ""), Ok(Some(json!(42))));
        assert!(parse(&integer, "seven").is_err());
        assert_eq!(parse(&json!({"type": "string"}), ""), Ok(None));
        assert_eq!(parse(&json!({"type": "boolean"}), "Yes"), Ok(Some(json!(true))));
        let pets = json!({"type": "string", "enum": ["pet-1", "pet-2"], "enumNames": ["Cats", "Dogs"]});
        assert_eq!(parse(&pets, "2"), Ok(Some(json!("pet-2"))));
        assert_eq!(parse(&pets, "cats"), Ok(Some(json!("pet-1"))));
        assert!(parse(&pets, "3").is_err());
        let heroes =
            json!({"type": "string", "oneOf": [{"const": "h1", "title": "Superman"}, {"const": "h2"}]});
        assert_eq!(parse(&heroes, "Superman"), Ok(Some(json!("h1"))));
        let fish = json!({"type": "array", "items": {"anyOf": [{"const": "f1", "title": "Tuna"}, {"const": "f2", "title": "Trout"}]}});
        assert_eq!(parse(&fish, "1, Trout"), Ok(Some(json!(["f1", "f2"]))));
    }

    #[test]
    fn an_answer_on_the_command_line_must_fit_the_form() {
        let request = InputRequest::new(
            "Book?",
            json!({"type": "object", "properties": {"size": {"type": "integer", "minimum": 1}}, "required": ["size"]}),
            Value::Null,
        );
        assert_eq!(from_json(&request, r#"{"size": 4}"#).unwrap().content.unwrap()["size"], json!(4));
        assert!(from_json(&request, r#"{"size": 0}"#).unwrap_err().contains("minimum"));
        assert!(from_json(&request, r#"{}"#).unwrap_err().contains("size"));
        assert!(from_json(&request, "[4]").unwrap_err().contains("object"));
        let shown = show(&request).join("\n");
        assert!(shown.contains("Book?") && shown.contains("size (size, integer, required)"), "{shown}");
    }
}
