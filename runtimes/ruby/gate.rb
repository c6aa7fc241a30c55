# frozen_string_literal: true

require_relative "runtime"
require_relative "methods"

# The method gate with the Ruby SDK's contract, reading each version's METHOD_TABLE: it refuses (-32601, a
# Runtime::MethodNotFoundError) only a method the negotiated protocol version removed (an earlier generated
# version has it) or has but not from the sending side; custom and unknown methods pass to their host
# unless `custom: :refuse`. A method only later versions
# have (server/discover or subscriptions/listen on a 2025-11-25 connection) follows the explicit
# `across_eras:` policy. Notifications are gated by the same rules. A method an extension adds is gated
# by the extension's module (EXTENSIONS) over the versions it is layered onto, when the host serves that
# extension (`extensions:`): there it is not removed, whatever earlier versions had.
#
# @example A server gating what clients send, serving server/discover on legacy connections too
#   gate = Gate.new(side: :server, across_eras: [Methods::SERVER_DISCOVER])
#   gate.check!("ping", VERSIONS.keys.last) # raises Runtime::MethodNotFoundError where the version removed ping
class Gate
  # @return [Symbol] :server or :client, the side receiving the methods
  attr_reader :side
  # @return [Symbol, Array<String>] the cross-era policy
  attr_reader :across_eras
  # @return [Array<String>] the identifiers of the extensions the host serves
  attr_reader :extensions
  # @return [Symbol] :pass or :refuse, what a method no generated version has gets
  attr_reader :custom

  # @param side [Symbol] :server (methods arrive from a client) or :client (from a server)
  # @param across_eras [Symbol, Array<String>] what to do with a method the negotiated version lacks but
  #   another generated version has: `:pass` (methods only later versions have pass like unknown ones;
  #   removed ones are still refused), `:refuse` (both are refused), or an Array of the methods served
  #   on every version whatever it says (the others refused as with `:refuse`)
  # @param extensions [Array<String>] the identifiers of the extensions the host serves
  #   (`io.modelcontextprotocol/tasks`); none by default
  # @param custom [Symbol] `:pass` (default: custom and unknown methods go to their host) or `:refuse`
  # @raise [ArgumentError] for another side or policy
  def initialize(side:, across_eras:, extensions: [], custom: :pass)
    raise ArgumentError, "side must be :server or :client, got #{side.inspect}" unless Runtime::SIDES.include?(side)
    unless Runtime::ACROSS_ERAS.include?(across_eras) || (across_eras.is_a?(Array) && across_eras.all? { |m| m.is_a?(String) })
      raise ArgumentError, "across_eras must be :pass, :refuse or an Array of method names, got #{across_eras.inspect}"
    end
    unless extensions.is_a?(Array) && extensions.all? { |x| x.is_a?(String) }
      raise ArgumentError, "extensions must be an Array of extension identifiers, got #{extensions.inspect}"
    end
    raise ArgumentError, "custom must be :pass or :refuse, got #{custom.inspect}" unless Runtime::CUSTOM.include?(custom)

    @side = side
    @custom = custom
    @extensions = extensions.dup.freeze
    @across_eras = across_eras.is_a?(Array) ? across_eras.dup.freeze : across_eras
    freeze
  end

  # The error to answer `method` with over a connection of `protocol_version`, or nil to let it through.
  # @param method [String]
  # @param protocol_version [String] a generated protocol version label
  # @return [Runtime::MethodNotFoundError, nil]
  # @raise [ArgumentError] for a version that is not generated
  def refusal(method, protocol_version)
    version = Methods.version_module(protocol_version)
    # The module of a served extension layered onto the version that adds the method: its catalogue has it.
    layered = EXTENSIONS.values.find do |x|
      x::PROTOCOL_VERSION == protocol_version && extensions.include?(x::EXTENSION) &&
        (x::EXTENSION_REQUESTS.include?(method) || x::EXTENSION_NOTIFICATIONS.include?(method))
    end
    Runtime.refusal(method, layered || version, side, across_eras, custom)
  end

  # Raises the refusal of `method` (see `refusal`), if any.
  # @param method [String]
  # @param protocol_version [String]
  # @return [nil]
  # @raise [Runtime::MethodNotFoundError]
  def check!(method, protocol_version)
    error = refusal(method, protocol_version)
    raise error if error
  end

  # The requests an earlier generated version accepted at this side that `protocol_version` refuses as
  # removed, sorted (the Ruby SDK's MODERN_REMOVED_METHODS, for the version the SDK serves): the version's
  # METHOD_TABLE rows of status `removed` this side receives, read, not recomputed.
  # @param protocol_version [String]
  # @return [Array<String>]
  def removed_requests(protocol_version)
    table = Methods.version_module(protocol_version)::METHOD_TABLE
    table.select { |_, row| row["kind"] == "request" && row["status"] == "removed" && row["receivers"].include?(side.to_s) }.keys.sort.freeze
  end
end
