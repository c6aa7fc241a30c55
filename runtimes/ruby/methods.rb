# frozen_string_literal: true

# The helpers of a generated Ruby tree's Methods module (methods.rb), over the per-version catalogues:
# mcp-codegen's Ruby printer (generator/emit/ruby/printer.ts) prints every method's constant first, then
# this module's body. Checked as Ruby on its own (`ruby -wc`, test/emit/ruby/printer.test.ts).
module Methods
  # Raised by `ensure_capability!` (readers `method` and `capability`).
  MissingRequiredCapabilityError = Runtime::MissingRequiredCapabilityError

  module_function

  # Whether `method` is a notification: the spec's `notifications/` prefix (custom ones included), or a
  # notification of a generated version.
  # @param method [Object]
  # @return [Boolean]
  def notification?(method)
    return false unless method.is_a?(String)

    method.start_with?("notifications/") || VERSIONS.each_value.any? { |v| v::NOTIFICATIONS.key?(method) }
  end

  # Whether `method` is a request of some generated version (of `version` when given).
  # @param method [Object]
  # @param version [String, nil] a protocol version label
  # @return [Boolean]
  def request?(method, version: nil)
    modules = version.nil? ? VERSIONS.values : [version_module(version)]
    modules.any? { |v| v::REQUESTS.key?(method) }
  end

  # The capabilities `method` requires, as key paths: those of `version`, else of the latest generated
  # version that has the method; none for a method no generated version has (a custom one).
  # @param method [String]
  # @param version [String, nil] a protocol version label
  # @return [Array<Array<Symbol>>]
  def required_capabilities(method, version: nil)
    modules = version.nil? ? VERSIONS.values.reverse : [version_module(version)]
    owner = modules.find { |v| v::REQUESTS.key?(method) || v::NOTIFICATIONS.key?(method) }
    return [] if owner.nil?

    (owner::REQUESTS[method] || owner::NOTIFICATIONS[method])[:capabilities]
  end

  # Raises MissingRequiredCapabilityError unless `capabilities` (a Hash with symbol keys, as the side
  # that serves the request or sends the notification declared them) has every capability `method`
  # requires (see `required_capabilities`), checked in order: `resources` before `resources.subscribe`.
  # @param method [String]
  # @param capabilities [Hash]
  # @param version [String, nil] a protocol version label
  # @return [nil]
  # @raise [MissingRequiredCapabilityError]
  def ensure_capability!(method, capabilities, version: nil)
    Runtime.require_capabilities!(method, required_capabilities(method, version: version), capabilities)
  end

  # The module of a generated protocol version.
  # @param label [String]
  # @return [Module]
  # @raise [ArgumentError] for a version that is not generated
  def version_module(label)
    VERSIONS.fetch(label) { raise ArgumentError, "protocol version #{label.inspect} is not generated; generated: #{VERSIONS.keys.join(", ")}" }
  end
end
