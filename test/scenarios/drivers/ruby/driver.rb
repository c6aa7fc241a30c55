# frozen_string_literal: true

# The Ruby driver of the scenario suite (test/scenarios/, docs/scenarios.md): concrete cases on stdin
# ({"cases": [...]}, as test/scenarios/resolve.ts expands them), what the generated Ruby tree answered on
# stdout: {"results": {id => actual}, "skipped": {id => why}, "summary": [lines]}.
#   gate      → McpCodegen::Runtime.refusal(method, version, side, across_eras, custom): the error object or null
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
    version = McpCodegen::VERSIONS.fetch(c.fetch("version"))
    policy = c.fetch("policy")
    across = policy.fetch("later") == "pass" ? :pass : :refuse
    error = McpCodegen::Runtime.refusal(c.fetch("method"), version, c.fetch("side").to_sym, across, policy.fetch("custom").to_sym)
    results[c.fetch("id")] = error&.to_h
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
