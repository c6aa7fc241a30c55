# frozen_string_literal: true

# Ruby 2.7 syntax check (the Ruby SDK's minimum, mcp.gemspec) with the running Ruby's Ripper: no gem
# parses as 2.7 here (Debian has no whitequark parser), so the constructs later Rubies added are found
# in the syntax tree and named. Post-2.7 syntax the running parser accepts:
# - endless method definitions `def x = 1` (3.0);
# - hash and keyword shorthand `{ x: }` (3.1);
# - anonymous block forwarding `def f(&)` (3.1);
# - argument forwarding with leading arguments `def f(a, ...)` / `g(a, ...)` (3.0);
# - pattern matching, `case/in`, `expr => pattern`, `expr in pattern` (experimental in 2.7, which warns;
#   rightward assignment and find patterns are 3.0).
# Syntax newer than the running Ruby fails to parse at all: reported as a syntax error.
# Usage: ruby syntax27.rb FILE... ; prints JSON { file => [problem, ...] }.
require "json"
require "ripper"

def problems(node, out)
  return out unless node.is_a?(Array)

  case node[0]
  when :def, :defs
    body = node.last
    out << "endless method definition (Ruby 3.0)" if body.is_a?(Array) && body[0] == :bodystmt && body[1].is_a?(Array) && body[1][0].is_a?(Symbol)
  when :assoc_new
    out << "hash shorthand { x: } (Ruby 3.1)" if node[2].nil?
  when :blockarg
    out << "anonymous block parameter & (Ruby 3.1)" if node[1].nil?
  when :params
    out << "argument forwarding with leading parameters (Ruby 3.0)" if node[6] == [:args_forward] && node[1..5].any? { |p| !p.nil? && p != [] }
  when :arg_paren
    list = node[1]
    out << "argument forwarding with leading arguments (Ruby 3.0)" if list.is_a?(Array) && list.include?([:args_forward]) && list.length > 1
  when :in
    out << "pattern matching (experimental in Ruby 2.7)"
  end
  node.each { |child| problems(child, out) }
  out
end

report = ARGV.to_h do |file|
  source = File.read(file)
  tree = Ripper.sexp(source)
  [file, tree.nil? ? ["syntax error (#{RUBY_VERSION} cannot parse it)"] : problems(tree, []).uniq]
end
puts JSON.generate(report)
