# Writes the header that renames every external symbol of the 128-bit libraries to hnefi_w_NAME
# (cmake -DNM=nm -DOUT=wide_names.h "-DLIBS=a.a;b.a" -P wide_names.cmake). The wide twins of the
# libraries are compiled with it forced in (-include), so the same sources define hnefi_w_*
# symbols and both builds link into one program (CMakeLists.txt, hnefi_wide_twin).
set(syms "")
foreach(lib ${LIBS})
  execute_process(COMMAND ${NM} --defined-only --extern-only --format=posix ${lib}
                  OUTPUT_VARIABLE out RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "wide_names: ${NM} failed on ${lib}")
  endif()
  string(REGEX MATCHALL "[^\n]+" lines "${out}")
  foreach(line ${lines})
    if(line MATCHES "^([A-Za-z_][A-Za-z0-9_]*) [A-Z] ")
      set(sym ${CMAKE_MATCH_1})
      # hnefi_shared_*: one object for both builds (weak), never renamed
      if(NOT sym MATCHES "^hnefi_shared_")
        list(APPEND syms ${sym})
      endif()
    endif()
  endforeach()
endforeach()
list(REMOVE_DUPLICATES syms)
list(SORT syms)
set(text "/* Made by tools/wide_names.cmake: the wide build's names for the 128-bit build's symbols. */\n")
string(APPEND text "#ifndef HNEFI_WIDE_NAMES_H\n#define HNEFI_WIDE_NAMES_H\n")
foreach(s ${syms})
  string(APPEND text "#define ${s} hnefi_w_${s}\n")
endforeach()
string(APPEND text "#endif\n")
# rewrite only on a change, so the wide libraries rebuild only when a symbol came or went
if(EXISTS ${OUT})
  file(READ ${OUT} old)
  if(old STREQUAL text)
    return()
  endif()
endif()
file(WRITE ${OUT} "${text}")
