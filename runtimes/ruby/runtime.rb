# frozen_string_literal: true

require "json"
require_relative "protocol"

# The rules every version's catalogue, result normalizers, method gate, capability check and params
# validators share. Hand-written Ruby (2.7 syntax: the Ruby SDK's minimum): the generator copies it,
# inside the generated namespace, as runtime.rb of the Ruby tree.
#
# Reading rules, for every value a handler returns:
# - `_meta` is read under the symbol key, else the string key (the Ruby SDK's
#   `MCP::Server#subscription_result` rule): `value[:_meta] || value["_meta"]`;
# - a `_meta` Hash passes through by reference: nothing is copied out of it.
# The error codes are the tree's protocol module's (protocol.rb, printed from the model beside this copy).
module Runtime
  METHOD_NOT_FOUND = ProtocolFacts::METHOD_NOT_FOUND
  INVALID_PARAMS = ProtocolFacts::INVALID_PARAMS
  INTERNAL_ERROR = ProtocolFacts::INTERNAL_ERROR

  # An error that carries the JSON-RPC error object its request is answered with.
  class Error < StandardError
    # @return [Integer] the JSON-RPC error code
    attr_reader :code
    # @return [Hash, nil] the JSON-RPC error's `data` member
    attr_reader :data

    # @param message [String] the JSON-RPC error's message
    # @param code [Integer] the JSON-RPC error code
    # @param data [Hash, nil] the JSON-RPC error's `data` member
    def initialize(message, code: INTERNAL_ERROR, data: nil)
      super(message)
      @code = code
      @data = data
    end

    # The JSON-RPC error object to answer with.
    # @return [Hash] `{ code:, message: }`, plus `data:` when there is one
    def to_h
      error = { code: code, message: message }
      error[:data] = data unless data.nil?
      error
    end
  end

  # What an `object`-shape normalizer raises when a handler's return cannot be a result (-32603).
  class ResultError < Error
    # @param message [String] names the method and what it should have returned
    def initialize(message)
      super(message, code: INTERNAL_ERROR)
    end
  end

  # What the method gate raises for a method the negotiated version refuses (-32601). `data` says why:
  # `{ method:, protocolVersion:, reason: }`, the reason one of `"removed"` (an earlier version has it),
  # `"wrong_side"` (the version has it, sent by the other side only) or `"other_era"` (only later
  # versions have it and the gate's `across_eras` policy does not serve it).
  class MethodNotFoundError < Error
    # @param message [String] the JSON-RPC error's message
    # @param data [Hash] `{ method:, protocolVersion:, reason: }`
    # @param code [Integer] the JSON-RPC error code (the verdict's)
    def initialize(message, data, code: METHOD_NOT_FOUND)
      super(message, code: code, data: data)
    end
  end

  # What `normalize_result` and `params_errors` raise for a method that is not a request (or, for
  # params, a method) of the version: a programming error of the caller, not an answer to send.
  class UnknownMethodError < ArgumentError
  end

  # What `ensure_capability!` raises when the capabilities lack one a method requires (the Ruby SDK's
  # `MCP::Methods::MissingRequiredCapabilityError`, same message and readers).
  class MissingRequiredCapabilityError < StandardError
    # @return [String] the method
    attr_reader :method
    # @return [String] the capability, dotted (`"resources.subscribe"`)
    attr_reader :capability

    # @param method [String] the method that needs the capability
    # @param capability [String] the capability, dotted
    def initialize(method, capability)
      super("Server does not support #{capability} (required for #{method})")
      @method = method
      @capability = capability
    end
  end

  # Values of a gate's `across_eras:` policy besides an Array of methods.
  ACROSS_ERAS = [:pass, :refuse].freeze
  # Values of a gate's `custom:` policy (a method no generated version has).
  CUSTOM = [:pass, :refuse].freeze
  # The sides of a connection.
  SIDES = [:client, :server].freeze

  # The keywords whose values are JSON values, not schemas.
  VALUE_KEYWORDS = %w[const enum default examples].freeze
  # The keywords whose values map names to schemas.
  SCHEMA_MAPS = %w[properties patternProperties dependentSchemas dependencies $defs definitions].freeze

  module_function

  # The `_meta` to send: the Hash's `_meta` (symbol key, else string key) when it is a Hash, else nil.
  # @param value [Object] a handler's return
  # @return [Hash, nil]
  def meta_of(value)
    return nil unless value.is_a?(Hash)

    meta = value[:_meta] || value["_meta"]
    meta.is_a?(Hash) ? meta : nil
  end

  # `empty`-shape result: `{ _meta: meta }` when the handler returned a Hash whose `_meta` is a Hash,
  # else `{}`; with `result_types` (the method's METHOD_TABLE row's, nil in the legacy era), plus
  # `resultType`: the first of them, the default. Nothing else is ever sent: strict peers reject other
  # members.
  # @param value [Object] a handler's return
  # @param result_types [Array<String>, nil] the `resultType` values allowed, the default first
  # @return [Hash]
  def empty_result(value, result_types = nil)
    meta = meta_of(value)
    result = meta ? { _meta: meta } : {}
    result_types ? result.merge(resultType: result_types.first) : result
  end

  # `object`-shape result: a new Hash of the handler's entries, except those whose value is nil and a
  # `_meta` (either key) that is not a Hash. Unknown entries are kept (the spec allows them).
  # `result_types` (the method's METHOD_TABLE row's) is nil in the legacy era; in the modern era it
  # lists the `resultType` values the method's result union allows, the first being the default when
  # none is given.
  # @param value [Object] a handler's return
  # @param method [String] the request's method (named in the error)
  # @param expected [String] the result definitions (named in the error)
  # @param result_types [Array<String>, nil] the `resultType` values allowed, nil in the legacy era
  # @return [Hash]
  # @raise [ResultError] when the handler returned anything but a Hash, or a `resultType` the method does not allow
  def object_result(value, method, expected, result_types)
    unless value.is_a?(Hash)
      raise ResultError, "Internal error: the #{method} handler returned #{describe(value)}; expected #{expected}"
    end

    result = {}
    value.each do |key, field|
      next if field.nil?
      next if (key == :_meta || key == "_meta") && !field.is_a?(Hash)

      result[key] = field
    end
    return result if result_types.nil?

    given = [value[:resultType], value["resultType"]].compact
    if given.empty?
      result[:resultType] = result_types.first
    else
      given.each do |type|
        next if type.is_a?(String) && result_types.include?(type)

        allowed = result_types.map(&:to_json).join(" or ")
        raise ResultError, "Internal error: the #{method} handler returned resultType #{type.to_json}; " \
                           "expected #{expected} with resultType #{allowed}"
      end
    end
    result
  end

  # The normalized result of a version's request: total over the version's REQUESTS.
  # @param version [Module] a generated version module
  # @param method [String]
  # @param value [Object] the handler's return
  # @return [Hash]
  # @raise [UnknownMethodError] for a method that is not a request of the version
  # @raise [ResultError] see `object_result`
  def normalize(version, method, value)
    entry = version::REQUESTS[method]
    if entry.nil?
      raise UnknownMethodError, "#{method.inspect} is not a request of protocol version #{version::PROTOCOL_VERSION}; " \
                                "its requests are #{version::REQUESTS.keys.join(", ")}"
    end

    version.public_send(entry[:normalizer], value)
  end

  # The method gate's answer for `method` arriving at `side` over a connection of `version`: a lookup of
  # the row's verdict at `side` in the version's METHOD_TABLE (the model's: accepted, or the refusal's
  # code, reason, message and the policy that may let it through), else, for a method no row names, of
  # ProtocolFacts::UNKNOWN_METHOD (its message's `{method}` and `{protocolVersion}` filled); then the
  # gate's policy: `custom` for what the verdict leaves to it as custom, `across_eras` (`:pass`) for a
  # later method, or (an Array) the methods served wherever another version has them (the row's
  # `nearest`), removed or later.
  # @param method [String]
  # @param version [Module] the negotiated version's module
  # @param side [Symbol] :server (the method arrives from a client) or :client
  # @param across_eras [Symbol, Array<String>] :pass, :refuse, or the methods to serve on versions that lack them
  # @param custom [Symbol] :pass (a method no generated version has goes to its host) or :refuse
  # @return [MethodNotFoundError, nil] the error to answer with, or nil to let the method through
  def refusal(method, version, side, across_eras, custom = :pass)
    row = version::METHOD_TABLE[method]
    verdict = row.nil? ? ProtocolFacts::UNKNOWN_METHOD : row["verdicts"][side.to_s]
    return nil if verdict["accepted"]
    return nil if across_eras.is_a?(Array) && across_eras.include?(method) && !row.nil? && !row["nearest"].nil?

    lifted = { "custom" => custom, "later" => across_eras }[verdict["policy"]]
    return nil if lifted == :pass

    data = { method: method, protocolVersion: version::PROTOCOL_VERSION, reason: verdict["reason"] }
    message = row.nil? ? verdict["message"].gsub(/\{(method|protocolVersion)\}/) { data[Regexp.last_match(1).to_sym] } : verdict["message"]
    MethodNotFoundError.new(message, data, code: verdict["code"])
  end

  # Raises MissingRequiredCapabilityError unless `capabilities` holds every capability path of
  # `requirements` (each an Array of keys, read with `dig`, symbol keys as the Ruby SDK's are).
  # @param method [String]
  # @param requirements [Array<Array<Symbol>>]
  # @param capabilities [Hash]
  # @return [nil]
  def require_capabilities!(method, requirements, capabilities)
    requirements.each do |keys|
      next if capabilities.dig(*keys)

      raise MissingRequiredCapabilityError.new(method, keys.join("."))
    end
    nil
  end

  # Whether json_schemer 2 (the gem the Ruby SDK depends on) can be loaded: params validators need it.
  # Its version is read first, so an older json_schemer is never loaded.
  # @return [Boolean]
  def json_schemer?
    return @json_schemer unless @json_schemer.nil?

    @json_schemer = begin
      require "json_schemer/version"
      if Gem::Version.new(JSONSchemer::VERSION) >= Gem::Version.new("2.0")
        require "json_schemer" # returns false when the host loaded it already
        true
      else
        false
      end
    rescue LoadError
      false
    end
  end

  # The errors of `params` against `method`'s params schema in the version's `<file>.params.json`
  # (the version's JSON Schema: the method's `params` and the definitions it uses), nil when
  # json_schemer 2 is not available. `params` may have symbol or string keys; nil is an absent `params`.
  # @param version [Module] a generated version module
  # @param method [String]
  # @param params [Hash, nil]
  # @return [Array<Hash>, nil] `{ pointer:, message: }` per error (empty when valid), or nil
  # @raise [UnknownMethodError] for a method the version does not have
  def params_errors(version, method, params)
    entry = version::REQUESTS[method] || version::NOTIFICATIONS[method]
    raise UnknownMethodError, "#{method.inspect} is not a method of protocol version #{version::PROTOCOL_VERSION}" if entry.nil?
    return nil unless json_schemer?

    if params.nil?
      return entry[:params_required] ? [{ pointer: "", message: "params is required" }] : []
    end

    data = JSON.parse(JSON.generate(params))
    params_schema(version, method).validate(data).map do |error|
      { pointer: error["data_pointer"], message: error["error"] }
    end
  end

  # The JSONSchemer schema of a method's params, built once per version and method.
  def params_schema(version, method)
    @params_schemas ||= {}
    @params_schemas[[version, method]] ||= begin
      document = version.params_document
      schema = { "allOf" => [document.fetch("methods").fetch(method)] }
      document.each { |key, value| schema[key] = value unless key == "methods" || key == "patterns" }
      # Every pattern is ECMA-262: the document maps each to the Ruby Regexp that means the same
      # (translated by the generator), so json_schemer never reads one as Ruby syntax. `format` is
      # an annotation in both dialects, as in every other target: never asserted.
      patterns = document.fetch("patterns", {})
      resolver = proc { |pattern| Regexp.new(patterns.fetch(pattern) { raise ArgumentError, "no Ruby translation of the pattern #{pattern.inspect}" }) }
      JSONSchemer.schema(decimal_divisors(schema), regexp_resolver: resolver, format: false)
    end
  end

  # A version's params document, read once from `path`.
  def read_params_document(path)
    JSON.parse(File.read(path)).freeze
  end

  # The schema `node` with each `multipleOf` number the BigDecimal of its shortest decimal form: json_schemer
  # divides the value's decimal form by it, and a Float divisor would be rounded to 16 digits on the way
  # (0.12345678901234568 no multiple of itself); so Ruby follows the rule every target follows, exact decimal
  # arithmetic on the numbers JSON writes. BigDecimal is json_schemer's (it requires it), as this is only
  # called once json_schemer is loaded. `const`, `enum`, `default` and `examples` hold values, not schemas
  # (left as they are); `properties` and the other maps of names hold schemas.
  def decimal_divisors(node)
    case node
    when Array then node.map { |x| decimal_divisors(x) }
    when Hash
      node.to_h do |key, value|
        if key == "multipleOf" && value.is_a?(Numeric)
          [key, BigDecimal(value.to_s)]
        elsif VALUE_KEYWORDS.include?(key)
          [key, value]
        elsif SCHEMA_MAPS.include?(key) && value.is_a?(Hash)
          [key, value.transform_values { |schema| decimal_divisors(schema) }]
        else
          [key, decimal_divisors(value)]
        end
      end
    else node
    end
  end

  # A value's kind in JSON's words (what the peer reads in the error message).
  # @param value [Object]
  # @return [String]
  def describe(value)
    case value
    when nil then "null"
    when Array then "an array"
    when String then "a string"
    when Numeric then "a number"
    when true, false then "a boolean"
    else "an instance of #{value.class}"
    end
  end
end
