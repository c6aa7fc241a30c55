# frozen_string_literal: true

require "minitest/autorun"
require "mcp"
require "mcp_codegen"

# The Ruby SDK 1.3.0 as the oracle: on generated handler returns, each legacy version's generated
# subscribe/unsubscribe normalizers agree with `MCP::Server#subscription_result`, and a server whose
# handlers pass their return through the generated normalizer answers exactly as one that does not.
class OracleTest < Minitest::Test
  SUBSCRIBE = "resources/subscribe"
  UNSUBSCRIBE = "resources/unsubscribe"
  INPUTS = 1_000
  SEED = Integer(ENV.fetch("ORACLE_SEED", "20260822"))
  # Legacy versions whose schema makes both subscription results empty (the table's `empty` shape): the ones the
  # SDK's subscription_result speaks for (a revision whose result is an open Result has the `object` shape).
  LEGACY = McpCodegen::VERSIONS.select do |_, v|
    v::ERA == :legacy && [SUBSCRIBE, UNSUBSCRIBE].all? { |m| v::REQUESTS.key?(m) && v::REQUESTS[m][:result_shape] == :empty }
  end
  KEYS = ["_meta", "uri", "subscriptionId", "meta", "_META", "resultType", "x"].freeze

  # Handler returns: nil, non-Hash values, and Hashes with symbol keys, string keys or both, whose
  # `_meta` (under either key, or both) is a nested Hash, nil, false or another value.
  class Inputs
    attr_reader :kinds

    def initialize(seed)
      @rng = Random.new(seed)
      @kinds = Hash.new(0)
    end

    def pick(list) = list[@rng.rand(list.size)]

    def string = Array.new(@rng.rand(6)) { pick(["a", "b", "_", "/", "é", "1", " "]) }.join

    def key
      name = @rng.rand(4).zero? ? string : pick(KEYS)
      @rng.rand(2).zero? ? name.to_sym : name
    end

    def value(depth)
      case @rng.rand(depth > 2 ? 7 : 9)
      when 0 then nil
      when 1 then @rng.rand(2).zero?
      when 2 then @rng.rand(-1_000..1_000)
      when 3 then @rng.rand * 100
      when 4 then string
      when 5 then string.to_sym
      when 6 then Object.new
      when 7 then Array.new(@rng.rand(4)) { value(depth + 1) }
      else hash(depth + 1)
      end
    end

    def hash(depth)
      Array.new(@rng.rand(5)) { [key, value(depth)] }.to_h
    end

    def meta
      pick([-> { hash(2) }, -> { hash(2) }, -> {}, -> { false }, -> { string }, -> { [hash(3)] }, -> { @rng.rand(9) }]).call
    end

    def next_input
      case @rng.rand(12)
      when 0 then @kinds[:nil] += 1; nil
      when 1, 2 then v = value(3); @kinds[v.is_a?(Hash) ? :hash : :non_hash] += 1; v
      else
        h = hash(1)
        case @rng.rand(4)
        when 0 then h[:_meta] = meta
        when 1 then h["_meta"] = meta
        when 2 then h[:_meta] = meta; h["_meta"] = meta
        end
        @kinds[:symbol_keys] += 1 if h.keys.any?(Symbol)
        @kinds[:string_keys] += 1 if h.keys.any?(String)
        @kinds[:both_meta_keys] += 1 if h.key?(:_meta) && h.key?("_meta")
        @kinds[:nested] += 1 if h.values.any? { |x| x.is_a?(Hash) || x.is_a?(Array) }
        @kinds[:hash_meta] += 1 if (h[:_meta] || h["_meta"]).is_a?(Hash)
        h
      end
    end
  end

  def sdk_server
    MCP::Server.new(name: "oracle", capabilities: { resources: { subscribe: true } })
  end

  def test_there_is_a_legacy_version_to_check
    refute_empty LEGACY
  end

  LEGACY.each do |label, version|
    [[SUBSCRIBE, :normalize_resources_subscribe], [UNSUBSCRIBE, :normalize_resources_unsubscribe]].each do |method, normalizer|
      define_method("test_#{label}_#{normalizer}_agrees_with_subscription_result") do
        oracle = sdk_server
        inputs = Inputs.new(SEED)
        INPUTS.times do |i|
          input = inputs.next_input
          expected = oracle.send(:subscription_result, input)
          assert_equal expected, version.public_send(normalizer, input), "input #{i} (seed #{SEED}): #{input.inspect}"
        end
        %i[nil non_hash symbol_keys string_keys both_meta_keys nested hash_meta].each do |kind|
          assert_operator inputs.kinds[kind], :>, 10, "too few inputs of kind #{kind}: #{inputs.kinds}"
        end
      end

      define_method("test_#{label}_#{method.tr("/", "_")}_server_answers_as_before_through_the_normalizer") do
        current = nil
        plain = sdk_server
        through = sdk_server
        if method == SUBSCRIBE
          plain.resources_subscribe_handler { |_| current }
          through.resources_subscribe_handler { |_| version.normalize_resources_subscribe(current) }
        else
          plain.resources_unsubscribe_handler { |_| current }
          through.resources_unsubscribe_handler { |_| version.normalize_resources_unsubscribe(current) }
        end
        inputs = Inputs.new(SEED + 1)
        INPUTS.times do |i|
          current = inputs.next_input
          request = { jsonrpc: "2.0", id: i, method: method, params: { uri: "file:///r/#{i}" } }
          before = plain.handle(request)
          assert_equal i, before[:id]
          assert before.key?(:result), "the SDK answered #{before.inspect}"
          assert_equal before, through.handle(request), "input #{i} (seed #{SEED + 1}): #{current.inspect}"
        end
      end
    end
  end
end
