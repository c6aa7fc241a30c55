# frozen_string_literal: true

# Prints, as JSON, the Ruby SDK's hand-written catalogue (MCP::Methods' method constants and
# MODERN_REMOVED_METHODS) and each generated version's (its method constants, requests with their
# senders, notifications, era, previous version and removed methods).
require "json"
require "mcp"
require "mcp/methods"
require "mcp_codegen"

methods_module = MCP::Methods
sdk = methods_module.constants.sort.filter_map do |name|
  value = methods_module.const_get(name)
  [name.to_s, value] if value.is_a?(String)
end.to_h

generated = McpCodegen::VERSIONS.to_h do |label, version|
  known = version::REQUESTS.keys + version::NOTIFICATIONS.keys
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
    removed: version::REMOVED_METHODS,
  }]
end

puts JSON.generate({ sdk: sdk, modern_removed_methods: methods_module::MODERN_REMOVED_METHODS, generated: generated })
