# frozen_string_literal: true

# The Ruby driver of the scenario suite (test/scenarios/, docs/scenarios.md): concrete cases on stdin
# ({"cases": [...]}, as test/scenarios/resolve.ts expands them), what the generated Ruby tree answered on
# stdout: {"results": {id => actual}, "skipped": {id => why}, "summary": [lines]}.
#   gate      → McpCodegen::Gate#refusal(method, label) under the case's policy (custom: :pass left to
#               Gate's default), serving the case's extension if it names one: the error object or null
#   normalize → version.normalize_result(method, input): {"ok" => result} or {"error" => {code, message}}
#   stdio     → skipped: the Ruby tree has no transport (it adapts the Ruby SDK's server)
require "json"
require "mcp_codegen"

cases = JSON.parse($stdin.read).fetch("cases")
results = {}
skipped = {}
cases.each do |c|
  case c.fetch("kind")
  when "gate"
    policy = c.fetch("policy")
    across = policy.fetch("later") == "pass" ? :pass : :refuse
    custom = policy.fetch("custom") == "pass" ? {} : { custom: :refuse }
    extensions = c.fetch("extension") ? [c.fetch("extension")] : []
    gate = McpCodegen::Gate.new(side: c.fetch("side").to_sym, across_eras: across, extensions: extensions, **custom)
    results[c.fetch("id")] = gate.refusal(c.fetch("method"), c.fetch("version"))&.to_h
  when "normalize"
    version = McpCodegen::VERSIONS.fetch(c.fetch("version"))
    begin
      results[c.fetch("id")] = { ok: version.normalize_result(c.fetch("method"), c["input"]) }
    rescue McpCodegen::Runtime::ResultError => e
      results[c.fetch("id")] = { error: e.to_h }
    end
  else
    skipped[c.fetch("id")] = "the Ruby tree has no #{c.fetch('kind')} transport: it adapts the Ruby SDK's server"
  end
end
summary = cases.map { |c| c.fetch("kind") }.uniq.sort.map do |kind|
  ran = cases.count { |c| c.fetch("kind") == kind && results.key?(c.fetch("id")) }
  left = cases.count { |c| c.fetch("kind") == kind && skipped.key?(c.fetch("id")) }
  "ruby runs #{ran} #{kind} cases, skips #{left}#{left.positive? ? " (#{skipped[cases.find { |c| c.fetch('kind') == kind }.fetch('id')]})" : ''}"
end
$stdout.write(JSON.generate({ results: results, skipped: skipped, summary: summary }))
