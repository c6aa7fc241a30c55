# frozen_string_literal: true

# In-process probes of an MCP::Server (the Ruby SDK on the load path, shipped or with the recipe applied),
# printed as JSON: the SDK as shipped is the oracle the recipe must match. Reads on stdin a JSON object
# { "methods": [...] } (every method of every generated version) and answers per probe the response.
#   custom: define_custom_method handlers (request and notification) on no session, a legacy session
#           and a modern envelope;
#   discover: server/discover on legacy sessions negotiated at each handshake version, and sessionless;
#   gate: every method under a modern envelope, and on a modern-locked session.
require "json"
require "mcp"
require "mcp/server"

input = JSON.parse($stdin.read)
methods = input.fetch("methods")
customs = ["custom/echo", "acme.example/thing", "notifications/acme/custom", "tasks/custom"]

def server_for(customs)
  server = MCP::Server.new(
    name: "probe",
    capabilities: { resources: { subscribe: true }, logging: {}, prompts: {}, tools: {}, completions: {} },
  )
  customs.each { |name| server.define_custom_method(method_name: name) { |params| { echoed: params, method: name } } }
  server
end

def envelope(version)
  {
    "io.modelcontextprotocol/protocolVersion" => version,
    "io.modelcontextprotocol/clientCapabilities" => {},
    "io.modelcontextprotocol/clientInfo" => { "name" => "probe", "version" => "1" },
  }
end

def initialize_request(version)
  { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "probe", version: "1" } } }
end

# A legacy session negotiated at `version`.
def legacy_session(server, version)
  session = MCP::ServerSession.new(server: server, transport: nil)
  server.handle(initialize_request(version), session: session)
  session
end

# Only what a client reads: JSON as it would go on the wire.
def wire(response)
  response.nil? ? nil : JSON.parse(JSON.generate(response))
end

modern = MCP::Configuration::LATEST_MODERN_PROTOCOL_VERSION
handshake = MCP::Configuration::SUPPORTED_HANDSHAKE_PROTOCOL_VERSIONS
probes = []

customs.each do |name|
  server = server_for(customs)
  probes << { probe: "custom #{name} sessionless", response: wire(server.handle({ jsonrpc: "2.0", id: 1, method: name, params: { a: 1 } })) }
  probes << { probe: "custom #{name} as a notification", response: wire(server.handle({ jsonrpc: "2.0", method: name, params: { a: 1 } })) }
  handshake.each do |version|
    session = legacy_session(server_for(customs), version)
    probes << { probe: "custom #{name} legacy #{version}", response: wire(session.handle({ jsonrpc: "2.0", id: 1, method: name, params: { a: 1 } })) }
  end
  probes << { probe: "custom #{name} modern envelope", response: wire(server_for(customs).handle({ jsonrpc: "2.0", id: 1, method: name, params: { _meta: envelope(modern), a: 1 } })) }
end

handshake.each do |version|
  server = server_for(customs)
  session = legacy_session(server, version)
  probes << { probe: "server/discover legacy #{version}", response: wire(session.handle({ jsonrpc: "2.0", id: 1, method: "server/discover", params: {} })) }
  probes << { probe: "server/discover legacy #{version} without params", response: wire(session.handle({ jsonrpc: "2.0", id: 2, method: "server/discover" })) }
end
probes << { probe: "server/discover sessionless", response: wire(server_for(customs).handle({ jsonrpc: "2.0", id: 1, method: "server/discover", params: {} })) }

methods.each do |method|
  server = server_for(customs)
  params = { _meta: envelope(modern), uri: "file:///probe", name: "probe", level: "info" }
  probes << { probe: "gate #{method} modern envelope", response: wire(server.handle({ jsonrpc: "2.0", id: 1, method: method, params: params })) }
  session = MCP::ServerSession.new(server: server_for(customs), transport: nil, era: :modern)
  probes << { probe: "gate #{method} modern session", response: wire(session.handle({ jsonrpc: "2.0", id: 1, method: method, params: params })) }
end

puts JSON.generate(probes)
