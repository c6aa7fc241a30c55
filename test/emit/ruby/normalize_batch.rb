# frozen_string_literal: true

# Driver for the cross-language test: reads a JSON array of cases on stdin, answers a JSON array.
#   { "version": label, "method": m, "input": json } → { "ok": result } or { "error": { code, message } }
#   { "version": label, "catalogue": true }          → { "requests": [...], "notifications": [...] }
#   { "version": label, "params_of": m, "params": json or absent } → { "params": [errors] or null (no json_schemer 2) }
#   { "version": label, "layered": true }            → an extension module's constants and catalogue entries
# A label is a version's (VERSIONS) or an extension module's (EXTENSIONS, `<version>+<extension>`).
require "json"
require "mcp_codegen"

cases = JSON.parse($stdin.read)
answers = cases.map do |c|
  label = c.fetch("version")
  version = McpCodegen::VERSIONS[label] || McpCodegen::EXTENSIONS.fetch(label)
  if c.key?("layered")
    {
      extensions: McpCodegen::EXTENSIONS.keys,
      protocol_version: version::PROTOCOL_VERSION,
      extension: version::EXTENSION,
      extension_version: version::EXTENSION_VERSION,
      extension_requests: version::EXTENSION_REQUESTS,
      extension_notifications: version::EXTENSION_NOTIFICATIONS,
      requests: version::REQUESTS.transform_values { |r| r.slice(:sender, :results, :result_shape, :result_types) },
      notifications: version::NOTIFICATIONS.transform_values { |n| n.slice(:sender) },
    }
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
