# frozen_string_literal: true

require "minitest/autorun"
require "mcp"
require "mcp_codegen"

# The generated result normalizers, called directly and from inside an MCP::Server (the Ruby SDK
# 1.3.0): the six subscribe/unsubscribe cases of the SDK's `_meta` pass-through change for each
# legacy version, the `object` shape's rules, the modern era's `resultType` and the method gate.
class NormalizersTest < Minitest::Test
  SUBSCRIBE = "resources/subscribe"
  UNSUBSCRIBE = "resources/unsubscribe"
  # Legacy versions with the subscription pair (each legacy version of the lock, today).
  PAIRED = McpCodegen::VERSIONS.select { |_, v| v::ERA == :legacy && v::REQUESTS.key?(SUBSCRIBE) && v::REQUESTS.key?(UNSUBSCRIBE) }
  # Those whose schema makes both results empty (the table's `empty` shape: only an object `_meta` passes); a
  # revision whose subscribe result is an open Result has the `object` shape instead, held by test_..._object_shape.
  LEGACY = PAIRED.select { |_, v| v::REQUESTS[SUBSCRIBE][:result_shape] == :empty && v::REQUESTS[UNSUBSCRIBE][:result_shape] == :empty }
  MODERN = McpCodegen::VERSIONS.select { |_, v| v::ERA == :modern }
  META = { "com.example/subscriptionId" => "sub-1", "nested" => { "depth" => [1, 2] } }.freeze

  def test_every_legacy_version_has_the_subscription_pair
    legacy = McpCodegen::VERSIONS.select { |_, v| v::ERA == :legacy }
    refute_empty legacy
    assert_equal legacy.keys, PAIRED.keys
    refute_empty LEGACY, "no legacy version has the empty subscription results (the headline rule)"
  end

  # An MCP::Server whose subscribe/unsubscribe handlers pass `returned` through the generated normalizer.
  def server_with(version, returned)
    server = MCP::Server.new(name: "t", capabilities: { resources: { subscribe: true } })
    server.resources_subscribe_handler { |_| version.normalize_resources_subscribe(returned) }
    server.resources_unsubscribe_handler { |_| version.normalize_resources_unsubscribe(returned) }
    server
  end

  def answer(server, method)
    server.handle({ jsonrpc: "2.0", id: 7, method: method, params: { uri: "file:///a" } })
  end

  # [case, handler return, expected result] — the same six for each legacy version.
  SIX = [
    ["meta passes on subscribe", SUBSCRIBE, { _meta: META }, { _meta: META }],
    ["meta passes on unsubscribe", UNSUBSCRIBE, { _meta: META }, { _meta: META }],
    ["a non-_meta field is dropped", SUBSCRIBE, { _meta: META, subscriptionId: "s-1" }, { _meta: META }],
    ["a string key works", SUBSCRIBE, { "_meta" => META }, { _meta: META }],
    ["a non-Hash _meta is ignored", SUBSCRIBE, { _meta: "sub-1" }, {}],
    ["a non-Hash return gives {}", SUBSCRIBE, "sub-1", {}],
  ].freeze

  LEGACY.each do |label, version|
    SIX.each do |name, method, returned, expected|
      define_method("test_#{label}_#{name.tr(" ", "_")}") do
        normalizer = method == SUBSCRIBE ? :normalize_resources_subscribe : :normalize_resources_unsubscribe
        assert_equal expected, version.public_send(normalizer, returned)
        assert_equal expected, version.normalize_result(method, returned)
        assert_equal({ jsonrpc: "2.0", id: 7, result: expected }, answer(server_with(version, returned), method))
      end
    end

    define_method("test_#{label}_meta_is_passed_by_reference_and_symbol_key_wins") do
      meta = { "k" => 1 }
      assert_same meta, version.normalize_resources_subscribe({ _meta: meta })[:_meta]
      assert_equal({ _meta: { "s" => 1 } }, version.normalize_resources_subscribe({ _meta: { "s" => 1 }, "_meta" => { "t" => 2 } }))
      # A nil or false symbol-key `_meta` falls through to the string key, as `a[:_meta] || a["_meta"]` does.
      assert_equal({ _meta: { "t" => 2 } }, version.normalize_resources_subscribe({ _meta: false, "_meta" => { "t" => 2 } }))
      assert_equal({}, version.normalize_resources_subscribe(nil))
    end
  end

  PAIRED.each do |label, version|
    define_method("test_#{label}_object_shape") do
      object = version::REQUESTS.find { |_, r| r[:result_shape] == :object }
      refute_nil object
      method, request = object
      assert_nil request[:result_types]
      meta = { "a" => 1 }
      assert_equal({ "content" => [], _meta: meta, "x" => false }, version.normalize_result(method, { "content" => [], "gone" => nil, _meta: meta, "_meta" => "no", "x" => false }))
      assert_equal({ y: 1 }, version.normalize_result(method, { y: 1, _meta: [1] }))
      error = assert_raises(McpCodegen::Runtime::ResultError) { version.normalize_result(method, [1]) }
      assert_equal(-32_603, error.code)
      assert_equal "Internal error: the #{method} handler returned an array; expected #{request[:results].join(" | ")}", error.message
      assert_equal({ code: -32_603, message: error.message }, error.to_h)
      assert_equal "Internal error: the #{method} handler returned null; expected #{request[:results].join(" | ")}",
                   assert_raises(McpCodegen::Runtime::ResultError) { version.normalize_result(method, nil) }.message
    end
  end

  MODERN.each do |label, version|
    define_method("test_#{label}_result_type") do
      version::REQUESTS.each do |method, request|
        if request[:result_shape] == :empty
          assert_equal({ resultType: "complete" }, version.normalize_result(method, { x: 1 }))
          assert_equal({ _meta: { "m" => 1 }, resultType: "complete" }, version.normalize_result(method, { "_meta" => { "m" => 1 } }))
          next
        end
        assert_equal({ "a" => 1, resultType: "complete" }, version.normalize_result(method, { "a" => 1, "resultType" => nil }))
        assert_equal({ resultType: "complete" }, version.normalize_result(method, { resultType: "complete" }))
        input_required = request[:results].include?("InputRequiredResult")
        assert_equal input_required ? %w[complete input_required] : %w[complete], request[:result_types]
        if input_required
          assert_equal({ "resultType" => "input_required" }, version.normalize_result(method, { "resultType" => "input_required" }))
        else
          error = assert_raises(McpCodegen::Runtime::ResultError) { version.normalize_result(method, { "resultType" => "input_required" }) }
          assert_equal "Internal error: the #{method} handler returned resultType \"input_required\"; expected #{request[:results].join(" | ")} with resultType \"complete\"", error.message
        end
      end
    end
  end

  McpCodegen::VERSIONS.each do |label, version|
    define_method("test_#{label}_normalize_result_is_total_over_the_requests") do
      version::REQUESTS.each do |method, request|
        # Every request has a normalizer, and normalize_result reaches it.
        assert_equal version.public_send(request[:normalizer], { _meta: { "m" => 1 } }), version.normalize_result(method, { _meta: { "m" => 1 } })
      end
      (version::NOTIFICATIONS.keys + ["no/such"]).each do |method|
        error = assert_raises(McpCodegen::Runtime::UnknownMethodError) { version.normalize_result(method, {}) }
        assert_equal "#{method.inspect} is not a request of protocol version #{label}; its requests are #{version::REQUESTS.keys.join(", ")}", error.message
      end
    end

    define_method("test_#{label}_catalogue_is_frozen_and_consistent") do
      assert_equal label, version::PROTOCOL_VERSION
      [version::REQUESTS, version::NOTIFICATIONS].each { |table| assert_predicate table, :frozen? }
      (version::REQUESTS.values + version::NOTIFICATIONS.values).each do |r|
        assert_predicate r, :frozen?
        assert_predicate r[:capabilities], :frozen?
        r[:capabilities].each do |path|
          assert_predicate path, :frozen?
          assert(path.all? { |k| k.is_a?(Symbol) })
        end
        assert_includes %i[client server both], r[:sender]
      end
      version::REQUESTS.each_value do |r|
        assert_predicate r[:results], :frozen?
        assert_includes %i[empty object], r[:result_shape]
        assert_respond_to version, r[:normalizer]
      end
      index = McpCodegen::VERSIONS.keys.index(label)
      index.zero? ? assert_nil(version::PREVIOUS_VERSION) : assert_equal(McpCodegen::VERSIONS.keys[index - 1], version::PREVIOUS_VERSION)
    end
  end
end
