# frozen_string_literal: true

# Reads printed Ruby files with Ruby's own parser (Ripper) and reports every name that collides: a
# constant or method defined twice in one module, a method named by a keyword, or a constant of a module
# that hides a constant of the namespace around it (Ruby finds the module's own first, so a version
# module's `Runtime` would replace the tree's). Input (stdin, JSON): {"files": [paths]}. Output (stdout,
# JSON): {"problems": [...], "counts": {...}}.
require "json"
require "ripper"

problems = []
counts = { "modules" => 0, "constants" => 0, "methods" => 0 }
# Per module path ("McpCodegen::V2025_11_25"): its constants and methods, with where they are.
modules = Hash.new { |h, k| h[k] = { constants: {}, methods: {} } }

walk = lambda do |node, path, file|
  next unless node.is_a?(Array)

  if node[0] == :module && node[1].is_a?(Array) && node[1][0] == :const_ref
    name = node[1][1][1]
    parent = path.join("::")
    modules[parent][:constants][name] ||= "#{file}:#{node[1][1][2][0]}" unless path.empty?
    inner = path + [name]
    counts["modules"] += 1
    modules[inner.join("::")]
    stmts = node[2][1]
    stmts.each do |s|
      next unless s.is_a?(Array)

      if s[0] == :assign && s[1].is_a?(Array) && s[1][0] == :var_field && s[1][1][0] == :@const
        c = s[1][1][1]
        where = "#{file}:#{s[1][1][2][0]}"
        seen = modules[inner.join("::")][:constants]
        problems << "#{where}: #{inner.join('::')}::#{c} is assigned again (first at #{seen[c]})" if seen.key?(c)
        seen[c] ||= where
        counts["constants"] += 1
      elsif s[0] == :def
        kind, m, pos = s[1]
        where = "#{file}:#{pos[0]}"
        problems << "#{where}: #{inner.join('::')}.#{m} is named by a keyword" if kind == :@kw
        seen = modules[inner.join("::")][:methods]
        problems << "#{where}: #{inner.join('::')}.#{m} is defined again (first at #{seen[m]})" if seen.key?(m)
        seen[m] ||= where
        counts["methods"] += 1
      end
    end
    stmts.each { |s| walk.call(s, inner, file) }
  else
    node.each { |child| walk.call(child, path, file) }
  end
end

JSON.parse($stdin.read)["files"].each do |file|
  tree = Ripper.sexp(File.read(file))
  if tree.nil?
    problems << "#{file}: does not parse"
    next
  end
  walk.call(tree, [], file)
end

# A module's constant that is also a constant of an enclosing module hides it inside the module.
modules.each do |name, defs|
  parts = name.split("::")
  (1...parts.length).each do |n|
    outer = modules.fetch(parts[0, n].join("::"), nil)
    next if outer.nil?

    defs[:constants].each do |c, where|
      next if c == parts[-1]

      problems << "#{where}: #{name}::#{c} hides #{parts[0, n].join('::')}::#{c} (#{outer[:constants][c]})" if outer[:constants].key?(c) && parts[n] != c
    end
  end
end

puts JSON.generate({ "problems" => problems, "counts" => counts })
