# frozen_string_literal: true

# Driver for the cross-language test: reads a JSON array of cases on stdin, answers a JSON array.
#   { "version": label, "method": m, "input": json } → { "ok": result } or { "error": { code, message } }
#   { "version": label, "gate": m }                  → { "gate": the server gate's error object (across_eras: :refuse) or null }
#   { "version": label, "catalogue": true }          → { "requests": [...], "notifications": [...] }
#   { "version": label, "params_of": m, "params": json or absent } → { "params": [errors] or null (no json_schemer 2) }
require "json"
require "mcp_codegen"

gate = McpCodegen::Gate.new(side: :server, across_eras: :refuse)
cases = JSON.parse($stdin.read)
answers = cases.map do |c|
  version = McpCodegen::VERSIONS.fetch(c.fetch("version"))
  if c.key?("gate")
    { gate: gate.refusal(c["gate"], version::PROTOCOL_VERSION)&.to_h }
  elsif c.key?("params_of")
    { params: version.params_errors(c["params_of"], c["params"]) }
  elsif c.key?("catalogue")
    { requests: version::REQUESTS.keys, notifications: version::NOTIFICATIONS.keys }
  else
    begin
      { ok: version.normalize_result(c.fetch("method"), c["input"]) }
    rescue McpCodegen::Runtime::ResultError => e
      { error: e.to_h }
    end
  end
end
$stdout.write(JSON.generate(answers))
