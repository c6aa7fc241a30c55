# frozen_string_literal: true

require "json"
require "minitest/autorun"
require "mcp"
require "mcp/methods"
require "mcp_codegen"

# The combined Methods module and the Gate of the generated tree: constants once, `notification?`,
# `ensure_capability!` against the reviewed data (schemas/method-capabilities.json, read here as the
# oracle) and against the Ruby SDK 1.3.0's hand-written MCP::Methods, and the gate's rules per version.
class MethodsGateTest < Minitest::Test
  Methods = McpCodegen::Methods
  Gate = McpCodegen::Gate
  VERSIONS = McpCodegen::VERSIONS
  REVIEWED = JSON.parse(File.read(File.expand_path("../../../schemas/method-capabilities.json", __dir__))).fetch("methods")
  # The extension modules (an extension layered onto a version) are generated modules too.
  EXTENSIONS = McpCodegen::EXTENSIONS
  MODULES = VERSIONS.values + EXTENSIONS.values
  ALL = MODULES.flat_map { |v| v::REQUESTS.keys + v::NOTIFICATIONS.keys }.uniq.sort
  # The labels in protocol order, earlier to later (generator/model/protocol-order.ts's rule, applied to the
  # schema files): those whose schema defines InitializeRequest (legacy) first; dates by date, then the others.
  ORDERED = VERSIONS.keys.sort_by do |label|
    doc = JSON.parse(File.read(File.expand_path("../../../schemas/#{label}/schema.json", __dir__)))
    legacy = (doc["$defs"] || doc["definitions"] || {}).key?("InitializeRequest")
    [(legacy ? 0 : 2) + (label.match?(/\A\d{4}-\d{2}-\d{2}\z/) ? 0 : 1), label]
  end.freeze

  def defines?(version, method)
    version::REQUESTS.key?(method) || version::NOTIFICATIONS.key?(method)
  end

  def test_one_constant_per_method_of_every_version
    constants = Methods.constants.map { |c| Methods.const_get(c) }.grep(String)
    assert_equal ALL, constants.sort
    MODULES.each do |version|
      (version::REQUESTS.keys + version::NOTIFICATIONS.keys).each do |method|
        name = version.constants.find { |c| version.const_get(c) == method }
        assert_equal method, Methods.const_get(name), "#{version} #{name}"
      end
    end
  end

  def test_notification_and_request_predicates
    VERSIONS.each_value do |version|
      version::NOTIFICATIONS.each_key { |m| assert Methods.notification?(m), m }
      version::REQUESTS.each_key { |m| refute Methods.notification?(m), m }
    end
    VERSIONS.each do |label, version|
      ALL.each do |m|
        assert_equal version::REQUESTS.key?(m), Methods.request?(m, version: label), "#{label} #{m}"
        assert_equal(VERSIONS.values.any? { |v| v::REQUESTS.key?(m) }, Methods.request?(m))
      end
    end
    refute Methods.request?("acme/custom")
    assert Methods.notification?("notifications/acme/custom")
    refute Methods.notification?("acme/custom")
    refute Methods.notification?(nil)
    refute Methods.notification?(:"notifications/initialized")
  end

  # The reviewed requirement of a method at a version, from the JSON file itself: an `ifDeclared` path
  # only where the version's schema (read here, as synced) declares it.
  def reviewed(method, label)
    entry = REVIEWED.fetch(method) do
      flunk(%(#{label} #{method} has no reviewed entry: add { "requires": [...], "reason": "..." } for "#{method}" to schemas/method-capabilities.json))
    end
    paths = entry.fetch("byVersion", {}).fetch(label, entry.fetch("requires"))
    paths = paths.select { |p| !entry.fetch("ifDeclared", []).include?(p) || declared?(label, p) }
    paths.map { |p| p.split(".").map(&:to_sym) }
  end

  # Whether schemas/<label>/schema.json's ServerCapabilities or ClientCapabilities has the dotted property path.
  def declared?(label, path)
    @schemas ||= {}
    schema = (@schemas[label] ||= JSON.parse(File.read(File.expand_path("../../../schemas/#{label}/schema.json", __dir__))))
    defs = schema["$defs"] || schema["definitions"]
    %w[ServerCapabilities ClientCapabilities].any? do |name|
      node = defs[name]
      path.split(".").all? do |key|
        found = node.is_a?(Hash) && node["properties"].is_a?(Hash) ? node["properties"][key] : nil
        found = defs[found["$ref"].split("/").last] if found.is_a?(Hash) && found["$ref"]
        node = found
        !found.nil?
      end
    end
  end

  def capabilities_with(paths)
    paths.each_with_object({}) do |keys, caps|
      keys[0...-1].inject(caps) { |h, k| h[k] ||= {} }[keys.last] ||= (keys.length == 1 ? {} : true)
    end
  end

  def test_ensure_capability_follows_the_reviewed_data_in_every_version
    checked = 0
    VERSIONS.each do |label, version|
      (version::REQUESTS.keys + version::NOTIFICATIONS.keys).each do |method|
        required = reviewed(method, label)
        assert_equal required, Methods.required_capabilities(method, version: label), "#{label} #{method}"
        assert_nil Methods.ensure_capability!(method, capabilities_with(required), version: label)
        required.each_with_index do |keys, i|
          # Everything before this path present, this one missing: the error names it.
          caps = capabilities_with(required[0...i])
          error = assert_raises(Methods::MissingRequiredCapabilityError) { Methods.ensure_capability!(method, caps, version: label) }
          assert_equal keys.join("."), error.capability
          assert_equal method, error.method
          assert_equal "Server does not support #{keys.join(".")} (required for #{method})", error.message
          checked += 1
        end
      end
    end
    assert_operator checked, :>, 0
    # A custom method requires nothing; without a version, the latest version that has the method decides.
    assert_nil Methods.ensure_capability!("acme/custom", {})
    latest = VERSIONS.keys.reverse.find { |l| defines?(VERSIONS[l], "completion/complete") }
    assert_equal reviewed("completion/complete", latest), Methods.required_capabilities("completion/complete")
  end

  # The SDK's hand-written ensure_capability! as oracle: for every method it names and every combination
  # of the capabilities either side requires, the same outcome and message. The SDK's table has no
  # version: it is the protocol versions it supports, so each method is compared at the newest of those
  # the lock has that defines it (not at the lock's last label, which a bump may give an older revision).
  def sdk_version(method)
    MCP::Configuration::SUPPORTED_STABLE_PROTOCOL_VERSIONS.find { |l| VERSIONS.key?(l) && defines?(VERSIONS[l], method) }
  end

  def test_ensure_capability_matches_the_ruby_sdk
    sdk_methods = MCP::Methods.constants.map { |c| MCP::Methods.const_get(c) }.grep(String).select { |m| sdk_version(m) }
    refute_empty sdk_methods
    paths = sdk_methods.flat_map { |m| Methods.required_capabilities(m, version: sdk_version(m)) }.uniq
    refute_empty paths
    # Up to two capabilities, and all but one: each requirement met and missed, alone and beside the others.
    combinations = (0..2).flat_map { |n| paths.combination(n).to_a } + paths.map { |p| paths - [p] } + [paths]
    sdk_methods.each do |method|
      combinations.each do |subset|
        caps = capabilities_with(subset)
        expected = begin
          MCP::Methods.ensure_capability!(method, caps)
          nil
        rescue MCP::Methods::MissingRequiredCapabilityError => e
          e.message
        end
        actual = begin
          Methods.ensure_capability!(method, caps, version: sdk_version(method))
          nil
        rescue Methods::MissingRequiredCapabilityError => e
          e.message
        end
        expected.nil? ? assert_nil(actual, "#{method} with #{caps}") : assert_equal(expected, actual, "#{method} with #{caps}")
      end
    end
  end

  # The gate's rules, restated: refused only when the version removed the method, has it from the other
  # side only, or (by the across_eras policy) only a later version has it.
  def expected_reason(method, label, side, across_eras)
    version = VERSIONS.fetch(label)
    sender = side == :server ? :client : :server
    entry = version::REQUESTS[method] || version::NOTIFICATIONS[method]
    return (entry[:sender] == :both || entry[:sender] == sender ? nil : "wrong_side") if entry
    return nil if across_eras.is_a?(Array) && across_eras.include?(method)

    labels = ORDERED
    index = labels.index(label)
    return "removed" if labels[0...index].any? { |l| defines?(VERSIONS[l], method) }
    return nil unless labels[(index + 1)..-1].any? { |l| defines?(VERSIONS[l], method) }

    across_eras == :pass ? nil : "other_era"
  end

  def test_gate_refuses_only_removed_wrong_side_and_other_era_methods
    reasons = Hash.new(0)
    [:server, :client].each do |side|
      [:pass, :refuse, [Methods::SERVER_DISCOVER]].each do |policy|
        gate = Gate.new(side: side, across_eras: policy)
        VERSIONS.each_key do |label|
          (ALL + ["acme/custom", "notifications/acme", "", "tasks/custom"]).each do |method|
            reason = expected_reason(method, label, side, policy)
            error = gate.refusal(method, label)
            if reason.nil?
              assert_nil error, "#{side} #{policy} #{label} #{method}"
              assert_nil gate.check!(method, label)
              next
            end
            reasons[reason] += 1
            assert_instance_of McpCodegen::Runtime::MethodNotFoundError, error, "#{side} #{policy} #{label} #{method}"
            assert_equal(-32_601, error.code)
            assert_equal({ method: method, protocolVersion: label, reason: reason }, error.data)
            assert_equal({ code: -32_601, message: error.message, data: error.data }, error.to_h)
            assert error.message.start_with?("Method not found: #{method} "), error.message
            raised = assert_raises(McpCodegen::Runtime::MethodNotFoundError) { gate.check!(method, label) }
            assert_equal error.to_h, raised.to_h
          end
        end
      end
    end
    # Every rule was exercised by today's versions: removed and wrong-side methods exist in any history
    # with a removal; other-era ones wherever a later version adds a method.
    assert_operator reasons["wrong_side"], :>, 0
    assert_operator reasons.values.sum, :>, reasons["wrong_side"]
  end

  def test_gate_across_eras_list_serves_a_newer_method_on_older_versions
    VERSIONS.each_key do |label|
      newer = ALL.select { |m| expected_reason(m, label, :server, :refuse) == "other_era" }
      newer.each do |method|
        refute_nil Gate.new(side: :server, across_eras: :refuse).refusal(method, label)
        assert_nil Gate.new(side: :server, across_eras: [method]).refusal(method, label)
        assert_nil Gate.new(side: :server, across_eras: :pass).refusal(method, label)
      end
    end
  end

  # A request this version lacks is removed for a side when the latest earlier version that has it (the
  # table's `nearest`) took it from that side: a method whose sides changed (an early draft's roots/list, sent
  # by both) is judged by its last sides, not by any earlier ones.
  def test_removed_requests_are_the_requests_the_nearest_earlier_version_took_from_that_side
    VERSIONS.each_key do |label|
      earlier = ORDERED[0...ORDERED.index(label)].map { |l| VERSIONS[l] }
      absent = earlier.flat_map { |v| v::REQUESTS.keys }.uniq.reject { |m| VERSIONS[label]::REQUESTS.key?(m) }
      nearest = absent.to_h { |m| [m, earlier.reverse.find { |v| v::REQUESTS.key?(m) }::REQUESTS[m][:sender]] }
      [:server, :client].each do |side|
        sender = side == :server ? :client : :server
        expected = absent.select { |m| [:both, sender].include?(nearest[m]) }.sort
        assert_equal expected, Gate.new(side: side, across_eras: :pass).removed_requests(label), "#{side} #{label}"
      end
    end
  end

  def test_gate_serves_the_methods_of_the_extensions_it_is_given_where_they_are_layered
    refute_empty EXTENSIONS
    served_somewhere = 0
    EXTENSIONS.each_value do |x|
      added = x::EXTENSION_REQUESTS + x::EXTENSION_NOTIFICATIONS
      refute_empty added
      layered = EXTENSIONS.values.select { |y| y::EXTENSION == x::EXTENSION }.map { |y| y::PROTOCOL_VERSION }
      [:server, :client].each do |side|
        sender = side == :server ? :client : :server
        [:pass, :refuse].each do |policy|
          served = Gate.new(side: side, across_eras: policy, extensions: [x::EXTENSION])
          plain = Gate.new(side: side, across_eras: policy)
          VERSIONS.each_key do |label|
            (ALL + ["acme/custom"]).each do |method|
              error = served.refusal(method, label)
              unless label == x::PROTOCOL_VERSION && added.include?(method)
                # Not an extension method at a version it is layered onto: as without the extension.
                next if layered.include?(label) && added.include?(method)

                expected = plain.refusal(method, label)&.to_h
                expected.nil? ? assert_nil(error, "#{side} #{policy} #{label} #{method}") : assert_equal(expected, error&.to_h, "#{side} #{policy} #{label} #{method}")
                next
              end
              entry = x::REQUESTS[method] || x::NOTIFICATIONS[method]
              if [:both, sender].include?(entry[:sender])
                served_somewhere += 1
                assert_nil error, "#{side} #{policy} #{label} #{method}"
              else
                assert_equal "wrong_side", error.data[:reason], "#{side} #{policy} #{label} #{method}"
              end
              # Without the extension: the core version's answer.
              reason = expected_reason(method, label, side, policy)
              unserved = plain.refusal(method, label)&.data&.fetch(:reason)
              reason.nil? ? assert_nil(unserved, "#{side} #{label} #{method}") : assert_equal(reason, unserved, "#{side} #{label} #{method}")
            end
          end
        end
      end
    end
    assert_operator served_somewhere, :>, 0
  end

  def test_gate_arguments
    assert_raises(ArgumentError) { Gate.new(side: :server, across_eras: :pass, extensions: "io.modelcontextprotocol/tasks") }
    assert_raises(ArgumentError) { Gate.new(side: :server, across_eras: :pass, extensions: [:tasks]) }
    assert_predicate Gate.new(side: :server, across_eras: :pass, extensions: [+"x"]).extensions, :frozen?
    assert_raises(ArgumentError) { Gate.new(side: :peer, across_eras: :pass) }
    assert_raises(ArgumentError) { Gate.new(side: :server, across_eras: :sometimes) }
    assert_raises(ArgumentError) { Gate.new(side: :server, across_eras: [:x]) }
    assert_raises(ArgumentError) { Gate.new(side: :server) }
    error = assert_raises(ArgumentError) { Gate.new(side: :server, across_eras: :pass).refusal("ping", "1999-01-01") }
    assert_equal "protocol version \"1999-01-01\" is not generated; generated: #{VERSIONS.keys.join(", ")}", error.message
    assert_predicate Gate.new(side: :server, across_eras: [+"x"]), :frozen?
  end
end
