# frozen_string_literal: true

require "json"

# The rules every version's result normalizers and method gate share. Hand-written Ruby: the
# generator copies it, inside the generated namespace, as runtime.rb of the Ruby tree.
#
# Reading rules, for every value a handler returns:
# - `_meta` is read under the symbol key, else the string key (the Ruby SDK's
#   `MCP::Server#subscription_result` rule): `value[:_meta] || value["_meta"]`;
# - a `_meta` Hash passes through by reference: nothing is copied out of it.
module Runtime
  METHOD_NOT_FOUND = -32_601
  INTERNAL_ERROR = -32_603

  # What an `object`-shape normalizer raises when a handler's return cannot be a result: the caller
  # answers the request with `code` (-32603) and `message`.
  class ResultError < StandardError
    def code
      INTERNAL_ERROR
    end

    # The JSON-RPC error object to answer with.
    def to_h
      { code: code, message: message }
    end
  end

  module_function

  # The `_meta` to send: the Hash's `_meta` (symbol key, else string key) when it is a Hash, else nil.
  def meta_of(value)
    return nil unless value.is_a?(Hash)

    meta = value[:_meta] || value["_meta"]
    meta.is_a?(Hash) ? meta : nil
  end

  # `empty`-shape result, legacy era: `{ _meta: meta }` when the handler returned a Hash whose `_meta`
  # is a Hash, else `{}`. Nothing else is ever sent: strict peers reject other members.
  def empty_result(value)
    meta = meta_of(value)
    meta ? { _meta: meta } : {}
  end

  # `empty`-shape result, modern era: as `empty_result`, plus `resultType: "complete"`.
  def empty_modern_result(value)
    meta = meta_of(value)
    meta ? { _meta: meta, resultType: "complete" } : { resultType: "complete" }
  end

  # `object`-shape result: a new Hash of the handler's entries, except those whose value is nil and a
  # `_meta` (either key) that is not a Hash. Unknown entries are kept (the spec allows them).
  # `result_types` is nil in the legacy era; in the modern era it lists the `resultType` values the
  # method's result union allows, the first ("complete") being the default when none is given.
  # Raises ResultError naming the method and `expected` when the handler returned anything but a
  # Hash, or a `resultType` the method does not allow.
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

  # The -32601 error for a request method the version does not have.
  def method_not_found(method, protocol_version)
    { code: METHOD_NOT_FOUND, message: "Method not found: #{method} is not a request of protocol version #{protocol_version}" }
  end

  # A value's kind in JSON's words (what the peer reads in the error message).
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
