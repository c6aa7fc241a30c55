# frozen_string_literal: true

require "json"
require_relative "projections"

# The projection interpreter (issue 41), the mirror of the TypeScript runtime's projection.ts: a value valid
# at one protocol version projected onto another version's shape of the same method's result or params. The
# shapes are data the generator decides from the schemas (projections.rb: Projections::BY_VERSION, the
# versions in protocol order as Projections::ORDER); this only walks them: undeclared members of a closed
# object dropped, required members supplied from the defaults given, a union's branches narrowed by its tag
# member (the value's, else the default given), of those the branch dropping the fewest
# members taken, and anything else refused with the JSON pointer at fault and the reason. No protocol fact
# is decided here.
#
#   Projection.project_result(Projections::BY_VERSION["2025-11-25"], "tools/list", result)
#   # => #<struct Projection::Projected value=..., dropped=["/ttlMs", ...], added=[]>
module Projection
  # What a projection did: the value at the target, the pointers of members dropped and of defaults supplied.
  Projected = Struct.new(:value, :dropped, :added) do
    def ok?
      true
    end
  end

  # No faithful value at the target: the JSON pointer of the value at fault, and why.
  Refused = Struct.new(:pointer, :reason) do
    def ok?
      false
    end
  end

  # Raised while walking, rescued into a Refused.
  class Refusal < StandardError
    attr_reader :pointer, :reason

    def initialize(pointer, reason)
      super(reason)
      @pointer = pointer
      @reason = reason
    end
  end

  ANY = { "k" => "any" }.freeze

  # One walk over a value (a union tries each branch with a walker of its own).
  class Walker
    attr_reader :dropped, :added

    def initialize(data)
      @data = data
      @dropped = []
      @added = []
    end

    def walk(value, shape, at, defaults, open = false)
      case shape["k"]
      when "any" then value
      when "never" then raise Refusal.new(at, "version #{label} allows no value here")
      when "lit" then literal(value, shape, at)
      when "str" then string(value, shape, at)
      when "num" then number(value, shape, at)
      when "bool"
        raise type_refusal(at, "a boolean", value) unless [true, false].include?(value)

        value
      when "null"
        raise type_refusal(at, "null", value) unless value.nil?

        value
      when "arr" then array(value, shape, at)
      when "ref"
        target = @data["definitions"][shape["name"]]
        raise Refusal.new(at, "version #{label} has no definition #{shape["name"]}") if target.nil?

        walk(value, target, at, defaults, open || shape["open"] == true)
      when "union" then union(value, shape, at, defaults, open)
      when "obj" then object(value, shape, at, defaults, open)
      else raise ArgumentError, "unknown projection shape #{shape["k"].inspect}"
      end
    end

    private

    def label
      @data["label"]
    end

    def literal(value, shape, at)
      return value if shape["values"].any? { |v| Projection.same_literal?(v, value) }

      raise Refusal.new(at, "version #{label} allows only #{shape["values"].map { |v| JSON.generate(v) }.join(", ")} here, not #{JSON.generate(value)}")
    end

    def string(value, shape, at)
      raise type_refusal(at, "a string", value) unless value.is_a?(String)

      too_short = shape.key?("minLength") && value.length < shape["minLength"]
      too_long = shape.key?("maxLength") && value.length > shape["maxLength"]
      unmatched = shape.key?("pattern") && !Regexp.new(shape["pattern"]).match?(value)
      raise Refusal.new(at, "the string does not meet version #{label}'s length or pattern") if too_short || too_long || unmatched

      value
    end

    def number(value, shape, at)
      raise type_refusal(at, "a number", value) unless value.is_a?(Numeric)

      out = (shape["integer"] && !Projection.integral?(value)) ||
            (shape.key?("minimum") && value < shape["minimum"]) ||
            (shape.key?("maximum") && value > shape["maximum"]) ||
            (shape.key?("exclusiveMinimum") && value <= shape["exclusiveMinimum"]) ||
            (shape.key?("exclusiveMaximum") && value >= shape["exclusiveMaximum"])
      raise Refusal.new(at, "#{value} is out of version #{label}'s range") if out

      value
    end

    def array(value, shape, at)
      raise type_refusal(at, "an array", value) unless value.is_a?(Array)

      if (shape.key?("minItems") && value.length < shape["minItems"]) || (shape.key?("maxItems") && value.length > shape["maxItems"])
        raise Refusal.new(at, "the array's length is out of version #{label}'s bounds")
      end

      value.each_with_index.map { |item, i| walk(item, shape["items"], "#{at}/#{i}", nil) }
    end

    def union(value, shape, at, defaults, open)
      best = nil
      first = nil
      agreed = true
      branches = tagged(value, shape, at, defaults)
      branches.each do |branch|
        w = Walker.new(@data)
        begin
          v = w.walk(value, branch, at, defaults, open)
          best = [v, w] if best.nil? || w.dropped.length < best[1].dropped.length
        rescue Refusal => e
          first ||= e
          agreed &&= e.pointer == first.pointer
        end
      end
      if best.nil?
        # One branch named by the tag, or every branch refusing at the same place inside the value: that refusal
        # says where the value fails.
        raise first if first && (branches.length == 1 || (agreed && first.pointer != at))

        type = value.is_a?(Hash) && value["type"].is_a?(String) ? " (type #{JSON.generate(value["type"])})" : ""
        detail = first && first.pointer != at ? ": #{first.pointer}: #{first.reason}" : ""
        raise Refusal.new(at, "no variant of version #{label} accepts this value#{type}#{detail}")
      end
      @dropped.concat(best[1].dropped)
      @added.concat(best[1].added)
      best[0]
    end

    # The branches a union's tag names for the value (the value's member, else its default); all where it names none.
    def tagged(value, shape, at, defaults)
      tag = shape["tag"]
      return shape["branches"] if tag.nil? || !value.is_a?(Hash)

      member = tag["member"]
      if value.key?(member)
        given = value[member]
      elsif !defaults.nil? && defaults.key?(member)
        given = defaults[member]
      else
        return shape["branches"]
      end
      named = shape["branches"].each_with_index.filter_map do |branch, i|
        values = tag["values"][i]
        branch if values.nil? || values.any? { |v| Projection.same_literal?(v, given) }
      end
      raise Refusal.new(at, "version #{label} has no variant whose #{member} is #{JSON.generate(given)}") if named.empty?

      named
    end

    def object(value, shape, at, defaults, open)
      raise type_refusal(at, "an object", value) unless value.is_a?(Hash)

      out = {}
      declared = shape["props"].map { |p| p["name"] }
      shape["props"].each do |p|
        where = "#{at}/#{Projection.pointer_token(p["name"])}"
        if value.key?(p["name"])
          out[p["name"]] = walk(value[p["name"]], p["s"], where, nil)
        elsif p["required"]
          given = !defaults.nil? && defaults.key?(p["name"])
          raise Refusal.new(where, "version #{label} requires this member and gives it no default") unless given || p.key?("default")

          out[p["name"]] = Projection.deep_copy(given ? defaults[p["name"]] : p["default"])
          @added << where
        end
      end
      # Undeclared members in code point order, as every runtime walks them: the first to fail names the refusal.
      value.sort_by { |name, _| name.codepoints }.each do |name, item|
        next if declared.include?(name)

        where = "#{at}/#{Projection.pointer_token(name)}"
        extra = shape["extra"] || (open ? ANY : nil)
        if extra.nil?
          @dropped << where
        else
          out[name] = walk(item, extra, where, nil)
        end
      end
      out
    end

    def type_refusal(at, expected, value)
      Refusal.new(at, "version #{label} expects #{expected} here, not #{Projection.json_type(value)}")
    end
  end

  module_function

  # A result of `method` (valid at any version) projected onto `target`'s result of the method.
  def project_result(target, method, value)
    entry = target["results"][method]
    return Refused.new("", "version #{target["label"]} has no request #{method}") if entry.nil?

    run(target, value, entry["shape"], entry["defaults"])
  end

  # Params of `method` (valid at any version) projected onto `target`'s params (lifting an older request to
  # the newest shape); absent params stay absent.
  def project_params(target, method, value)
    return Projected.new(value, [], []) if value.nil?

    shape = target["params"][method]
    return Refused.new("", "version #{target["label"]} has no params for #{method}") if shape.nil?

    run(target, value, shape, nil)
  end

  # Any value projected onto a shape of `target`'s data (its `serverCapabilities`, a definition's `ref`).
  def project_shape(target, shape, value)
    run(target, value, shape, nil)
  end

  def run(target, value, shape, defaults)
    w = Walker.new(target)
    out = w.walk(value, shape, "", defaults)
    Projected.new(out, w.dropped, w.added)
  rescue Refusal => e
    Refused.new(e.pointer, e.reason)
  end

  # RFC 6901: `~` as `~0`, `/` as `~1`.
  def pointer_token(name)
    name.to_s.gsub("~", "~0").gsub("/", "~1")
  end

  # JSON's number equality (1 and 1.0 alike), never a boolean or null for a number.
  def same_literal?(a, b)
    return a.equal?(b) if [true, false, nil].include?(a) || [true, false, nil].include?(b)

    a == b
  end

  # Whether a number is an integer in JSON's sense (1.0 is).
  def integral?(value)
    value.is_a?(Integer) || (value.is_a?(Float) && value.finite? && value == value.floor)
  end

  def json_type(value)
    case value
    when nil then "null"
    when Array then "array"
    when Hash then "object"
    when String then "string"
    when true, false then "boolean"
    when Numeric then "number"
    else value.class.name
    end
  end

  def deep_copy(value)
    JSON.parse(JSON.generate([value]))[0]
  end
end
