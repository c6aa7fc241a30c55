# frozen_string_literal: true

# Prints, as JSON, the Ruby SDK's hand-written catalogue (MCP::Methods' method constants and
# MODERN_REMOVED_METHODS) and each generated version's (its method constants, requests with their
# senders, notifications, era, previous version, the methods of the previous version it lacks, and the
# generated gate's removed requests).
require "json"
require "mcp"
require "mcp/methods"
require "mcp_codegen"

methods_module = MCP::Methods
sdk = methods_module.constants.sort.filter_map do |name|
  value = methods_module.const_get(name)
  [name.to_s, value] if value.is_a?(String)
end.to_h

# The gate as the recipe configures it for the SDK (ADOPTING.md).
GATE = McpCodegen::Gate.new(side: :server, across_eras: [McpCodegen::Methods::SERVER_DISCOVER])

LEGACY = McpCodegen::VERSIONS.values.select { |v| v::ERA == :legacy }

generated = McpCodegen::VERSIONS.to_h do |label, version|
  known = version::REQUESTS.keys + version::NOTIFICATIONS.keys
  previous = version::PREVIOUS_VERSION && McpCodegen::VERSIONS.fetch(version::PREVIOUS_VERSION)
  constants = version.constants.sort.filter_map do |name|
    value = version.const_get(name)
    [name.to_s, value] if value.is_a?(String) && known.include?(value)
  end.to_h
  [label, {
    era: version::ERA,
    previous: version::PREVIOUS_VERSION,
    constants: constants,
    requests: version::REQUESTS.transform_values { |r| r[:sender] },
    notifications: version::NOTIFICATIONS.keys,
    # A modern version removed what any legacy version had (label order is not protocol order: a bump may
    # add an older legacy revision after it); a legacy one what the version before it had.
    removed: if version::ERA == :modern
               LEGACY.flat_map { |v| v::REQUESTS.keys + v::NOTIFICATIONS.keys }.uniq.sort - known
             else
               previous ? (previous::REQUESTS.keys + previous::NOTIFICATIONS.keys - known).sort : []
             end,
    removed_requests: GATE.removed_requests(label),
  }]
end

# The SDK's gate in action: a modern request (the per-request `_meta` envelope) for every request
# method any generated version or MODERN_REMOVED_METHODS names, against each generated modern version
# the SDK serves: the SDK server's error (or nil when it answers otherwise) beside the gate's refusal.
server = MCP::Server.new(name: "gate", capabilities: { resources: { subscribe: true }, logging: {}, prompts: {}, tools: {}, completions: {} })
all_requests = (McpCodegen::VERSIONS.values.flat_map { |v| v::REQUESTS.keys } + methods_module::MODERN_REMOVED_METHODS).uniq.sort
gates = McpCodegen::VERSIONS.select { |label, v| v::ERA == :modern && MCP::Configuration::SUPPORTED_MODERN_PROTOCOL_VERSIONS.include?(label) }.flat_map do |label, version|
  meta = {
    "io.modelcontextprotocol/protocolVersion" => label,
    "io.modelcontextprotocol/clientCapabilities" => {},
    "io.modelcontextprotocol/clientInfo" => { "name" => "gate", "version" => "1" },
  }
  all_requests.map do |method|
    answer = server.handle({ jsonrpc: "2.0", id: 1, method: method, params: { _meta: meta, uri: "file:///gate" } })
    sdk_error = answer[:error] && answer[:error][:code] == -32_601 ? answer[:error].slice(:code, :message) : nil
    { version: label, method: method, sdk: sdk_error, generated: GATE.refusal(method, label)&.to_h&.slice(:code, :message) }
  end
end

puts JSON.generate({ sdk: sdk, modern_removed_methods: methods_module::MODERN_REMOVED_METHODS, generated: generated, gates: gates })
