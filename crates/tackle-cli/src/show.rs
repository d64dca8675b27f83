//! `tackle config show`: the effective settings, secrets redacted, each with its origin.

use std::process::ExitCode;

use serde_json::{Value, json};
use tackle_tools::SettingOrigin;

use crate::cli::ProviderArgs;
use crate::config::Config;
use crate::failure::Failure;
use crate::{provider, tools};

/// One effective setting.
struct Entry {
    key: String,
    value: Value,
    origin: String,
}

fn entry(key: impl Into<String>, value: impl Into<Value>, origin: impl Into<String>) -> Entry {
    Entry { key: key.into(), value: value.into(), origin: origin.into() }
}

fn origin_words(origin: SettingOrigin, config: &Config) -> String {
    match origin {
        SettingOrigin::Locked => format!("locked by the organisation ({})", config.origin()),
        SettingOrigin::User => config.origin(),
        SettingOrigin::OrgDefault => format!("organisation default ({})", config.origin()),
        SettingOrigin::ToolDefault => "the tool's default".to_owned(),
        SettingOrigin::SecretStore => "secret store".to_owned(),
    }
}

pub(crate) async fn show(flags: &ProviderArgs, json_out: bool, config: &Config) -> Result<ExitCode, Failure> {
    let mut entries = Vec::new();
    match provider::choose(flags, config)? {
        Some(chosen) => {
            entries.push(entry("provider", chosen.name.clone(), chosen.name_origin.clone()));
            entries.push(entry("model", chosen.model.clone(), chosen.model_origin.clone()));
            let base = chosen.base_url.clone().unwrap_or_else(|| chosen.preset.base_url.to_owned());
            let base_origin = if flags.base_url.is_some() {
                "--base-url".to_owned()
            } else if chosen.base_url.is_some() {
                config.origin()
            } else {
                "the provider's default".to_owned()
            };
            entries.push(entry("base_url", base, base_origin));
            let key = if chosen.key.is_some() { "***** (set)" } else { "(not set)" };
            entries.push(entry("api_key", key, chosen.key_origin.clone()));
            entries.push(entry("confidence", json!(chosen.confidence), "provider default or settings file"));
        }
        None => entries.push(entry("provider", Value::Null, "nothing configured")),
    }
    let limits = config.limits();
    let file = &config.file.limits;
    let from = |set: bool| if set { config.origin() } else { "default".to_owned() };
    entries.push(entry("limits.max_tool_calls", limits.max_tool_calls, from(file.max_tool_calls.is_some())));
    entries.push(entry("limits.max_rounds", limits.max_rounds, from(file.max_rounds.is_some())));
    entries.push(entry(
        "limits.max_result_chars",
        limits.max_result_chars,
        from(file.max_result_chars.is_some()),
    ));
    entries.push(entry(
        "limits.max_seconds",
        limits.max_duration.map(|d| d.as_secs()),
        from(file.max_seconds.is_some()),
    ));
    entries.push(entry(
        "limits.max_total_tokens",
        limits.max_total_tokens,
        from(file.max_total_tokens.is_some()),
    ));
    entries.push(entry(
        "limits.max_tool_cost",
        limits.max_tool_cost.map(|c| c.as_credits()),
        from(file.max_tool_cost.is_some()),
    ));
    let registry = tools::registry(config).await?;
    let settings = config.tool_settings()?;
    let approval = config.approval_required()?;
    let secrets = crate::secrets::Backend::chosen(config)?;
    for definition in registry.definitions() {
        let tool = &definition.name;
        for field in &definition.settings.fields {
            let key = format!("tools.{tool}.{}", field.name);
            if field.secret {
                // Whether it is set, never what it is.
                match secrets.get(&format!("{tool}.{}", field.name)) {
                    Some(_) => entries.push(entry(key, "***** (set)", "secret store")),
                    None => entries.push(entry(key, Value::Null, "secret store: not set")),
                }
                continue;
            }
            match settings.resolve(tool, field) {
                Some((value, origin)) => entries.push(entry(key, value, origin_words(origin, config))),
                None => entries.push(entry(
                    key,
                    Value::Null,
                    if field.required { "required, not set" } else { "not set" },
                )),
            }
        }
        if approval.contains(tool) {
            entries.push(entry(format!("tools.{tool}.approval"), true, config.origin()));
        }
    }
    if json_out {
        let map: serde_json::Map<String, Value> =
            entries.into_iter().map(|e| (e.key, json!({"value": e.value, "origin": e.origin}))).collect();
        let out = json!({
            "settings_file": config.path.as_ref().map(|p| p.display().to_string()),
            "settings_file_found": config.loaded,
            "settings": map,
        });
        crate::print_line(&serde_json::to_string_pretty(&out).unwrap_or_default());
    } else {
        let file =
            config.path.as_ref().map_or_else(|| "(no config dir)".to_owned(), |p| p.display().to_string());
        crate::print_line(&format!(
            "# settings file: {file}{}",
            if config.loaded { "" } else { " (not found)" }
        ));
        for e in entries {
            let value = match &e.value {
                Value::Null => "(unset)".to_owned(),
                Value::String(s) => format!("{s:?}"),
                other => other.to_string(),
            };
            crate::print_line(&format!("{} = {value}  # {}", e.key, e.origin));
        }
    }
    Ok(ExitCode::SUCCESS)
}
