// Checks the program as 3D Slicer uses it.
//
// rules: the --xml description against the rules 3D Slicer applies, written
//   here from reading SlicerExecutionModel's ModuleDescriptionParser.cxx and
//   ModuleDescription.xsd (the parser Slicer loads modules with; expat, the
//   XML parser it uses, is used here too) and Slicer's vtkSlicerCLIModuleLogic
//   (how it builds the command line). The checker first proves on broken
//   descriptions that it notices each kind of mistake, then checks ours.
// run: builds the command line Slicer builds from that description (flags from
//   the XML, booleans without values, images as NRRD files in a temporary
//   folder, --returnparameterfile first), runs the program with exactly that
//   argv, and checks every output: the label image against ITK's
//   ConnectedComponentImageFilter, the table, the return parameter file.
//
// Usage: SlicerModuleCheck PROGRAM WORKDIR rules|run [XMLFILE]
//   With XMLFILE, rules checks that file instead of the program's --xml.
#include "AppTestSupport.h"

#include <expat.h>

#include <memory>
#include <set>

namespace
{

using namespace ccaapptest;

// ---- a small element tree built with expat -----------------------------------------

struct Element
{
  std::string                                      name;
  std::vector<std::pair<std::string, std::string>> attributes;
  std::string                                      text; ///< character data, CDATA included
  std::vector<std::unique_ptr<Element>>            children;
  Element *                                        parent = nullptr;
  long                                             line = 0;

  std::string
  Trimmed() const
  {
    const auto first = text.find_first_not_of(" \t\r\n");
    const auto last = text.find_last_not_of(" \t\r\n");
    return first == std::string::npos ? std::string() : text.substr(first, last - first + 1);
  }
  const Element *
  Child(const std::string & childName) const
  {
    for (const auto & child : children)
    {
      if (child->name == childName)
      {
        return child.get();
      }
    }
    return nullptr;
  }
  std::string
  ChildText(const std::string & childName) const
  {
    const Element * child = Child(childName);
    return child ? child->Trimmed() : std::string();
  }
};

struct TreeBuilder
{
  XML_Parser               parser = nullptr;
  std::unique_ptr<Element> root;
  Element *                current = nullptr;
  std::vector<std::string> problems;
};

void XMLCALL
StartElement(void * data, const XML_Char * name, const XML_Char ** attributes)
{
  auto * builder = static_cast<TreeBuilder *>(data);
  auto   element = std::make_unique<Element>();
  element->name = name;
  element->line = XML_GetCurrentLineNumber(builder->parser);
  for (int i = 0; attributes[i] != nullptr; i += 2)
  {
    element->attributes.emplace_back(attributes[i], attributes[i + 1]);
  }
  element->parent = builder->current;
  Element * raw = element.get();
  if (builder->current == nullptr)
  {
    if (builder->root)
    {
      builder->problems.push_back("more than one root element");
      return;
    }
    builder->root = std::move(element);
  }
  else
  {
    builder->current->children.push_back(std::move(element));
  }
  builder->current = raw;
}

void XMLCALL
EndElement(void * data, const XML_Char *)
{
  auto * builder = static_cast<TreeBuilder *>(data);
  if (builder->current)
  {
    builder->current = builder->current->parent;
  }
}

void XMLCALL
CharacterData(void * data, const XML_Char * text, int length)
{
  auto * builder = static_cast<TreeBuilder *>(data);
  if (builder->current)
  {
    builder->current->text.append(text, static_cast<size_t>(length));
  }
}

std::unique_ptr<Element>
ParseXml(const std::string & xml, std::vector<std::string> & problems)
{
  TreeBuilder builder;
  builder.parser = XML_ParserCreate(nullptr);
  XML_SetUserData(builder.parser, &builder);
  XML_SetElementHandler(builder.parser, StartElement, EndElement);
  XML_SetCharacterDataHandler(builder.parser, CharacterData);
  if (XML_Parse(builder.parser, xml.data(), static_cast<int>(xml.size()), 1) == XML_STATUS_ERROR)
  {
    problems.push_back(std::string("not well-formed XML: ") + XML_ErrorString(XML_GetErrorCode(builder.parser)) +
                       " at line " + std::to_string(XML_GetCurrentLineNumber(builder.parser)));
    XML_ParserFree(builder.parser);
    return nullptr;
  }
  XML_ParserFree(builder.parser);
  problems.insert(problems.end(), builder.problems.begin(), builder.problems.end());
  return std::move(builder.root);
}

// ---- Slicer's rules ---------------------------------------------------------------

/** ModuleDescriptionParser's validVariable: names and long flags. */
bool
IsSlicerIdentifier(const std::string & text)
{
  if (text.empty() || !(std::isalpha(static_cast<unsigned char>(text[0])) || text[0] == '_'))
  {
    return false;
  }
  for (const char c : text)
  {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
    {
      return false;
    }
  }
  return true;
}

std::string
WithoutLeadingDashes(const std::string & text)
{
  const auto first = text.find_first_not_of('-');
  return first == std::string::npos ? std::string() : text.substr(first);
}

const std::set<std::string> ExecutableChildren = { "category", "title",       "description",       "version",
                                                   "license",  "contributor", "documentation-url", "acknowledgements",
                                                   "location", "index",       "parameters" };
// The XSD's <executable> sequence (acknowledgements, location and index are parser-only).
const std::vector<std::string> ExecutableRequired = { "category",          "title",   "description", "version",
                                                      "documentation-url", "license", "contributor" };
const std::set<std::string>    SimpleTags = { "integer",
                                              "float",
                                              "double",
                                              "string",
                                              "boolean",
                                              "integer-vector",
                                              "float-vector",
                                              "double-vector",
                                              "string-vector",
                                              "string-enumeration",
                                              "integer-enumeration",
                                              "float-enumeration",
                                              "double-enumeration" };
const std::set<std::string>    FileTags = { "file",  "directory",   "image",     "geometry", "transform",
                                            "table", "measurement", "pointfile", "point",    "region" };
const std::set<std::string>    ParameterChildren = { "name",    "label",       "description", "longflag",
                                                     "flag",    "index",       "default",     "channel",
                                                     "element", "constraints", "reference" };

/** The attributes ModuleDescriptionParser accepts per parameter tag, and the
 *  values it accepts where it restricts them (empty set: any value). */
const std::map<std::string, std::map<std::string, std::set<std::string>>> &
AllowedAttributes()
{
  static const std::set<std::string> any;
  static const std::set<std::string> trueFalse = { "true", "false" };
  static const std::set<std::string> coordinates = { "ijk", "lps", "ras" };
  static const std::map<std::string, std::map<std::string, std::set<std::string>>> table = {
    { "integer", { { "hidden", trueFalse }, { "multiple", trueFalse } } },
    { "float", { { "hidden", trueFalse }, { "multiple", trueFalse } } },
    { "double", { { "hidden", trueFalse }, { "multiple", trueFalse } } },
    { "string", { { "hidden", trueFalse }, { "multiple", trueFalse } } },
    { "boolean", { { "hidden", trueFalse } } },
    { "string-enumeration", { { "hidden", trueFalse } } },
    { "integer-enumeration", { { "hidden", trueFalse } } },
    { "float-enumeration", { { "hidden", trueFalse } } },
    { "double-enumeration", { { "hidden", trueFalse } } },
    { "integer-vector", {} },
    { "float-vector", {} },
    { "double-vector", {} },
    { "string-vector", {} },
    { "point", { { "multiple", trueFalse }, { "coordinateSystem", coordinates } } },
    { "region", { { "multiple", trueFalse }, { "coordinateSystem", coordinates } } },
    { "pointfile",
      { { "multiple", trueFalse },
        { "type", { "any", "point", "line", "angle", "curve", "closedcurve" } },
        { "fileExtensions", any },
        { "coordinateSystem", coordinates } } },
    { "file", { { "multiple", trueFalse }, { "fileExtensions", any } } },
    { "directory", { { "multiple", trueFalse } } },
    { "transform",
      { { "multiple", trueFalse },
        { "type", { "linear", "nonlinear", "bspline" } },
        { "fileExtensions", any },
        { "reference", any } } },
    { "image",
      { { "multiple", trueFalse },
        { "type",
          { "any",
            "scalar",
            "label",
            "tensor",
            "diffusion-weighted",
            "vector",
            "signal",
            "multichannel",
            "dynamic-contrast-enhanced" } },
        { "fileExtensions", any },
        { "hidden", trueFalse },
        { "reference", any } } },
    { "geometry",
      { { "multiple", trueFalse },
        { "aggregate", trueFalse },
        { "type", { "fiberbundle", "model" } },
        { "fileExtensions", any },
        { "reference", any } } },
    { "table",
      { { "multiple", trueFalse },
        { "reference", any },
        { "hidden", trueFalse },
        { "type", { "color" } },
        { "fileExtensions", any } } },
    { "measurement",
      { { "multiple", trueFalse },
        { "reference", any },
        { "hidden", trueFalse },
        { "type", any },
        { "fileExtensions", any } } },
  };
  return table;
}

bool
IsDecimalInteger(const std::string & text, long long minimum, long long maximum)
{
  std::size_t used = 0;
  try
  {
    const long long value = std::stoll(text, &used, 10);
    return used == text.size() && value >= minimum && value <= maximum;
  }
  catch (const std::exception &)
  {
    return false;
  }
}

bool
IsNumber(const std::string & text)
{
  std::size_t used = 0;
  try
  {
    (void)std::stod(text, &used);
    return used == text.size();
  }
  catch (const std::exception &)
  {
    return false;
  }
}

/** One parameter as Slicer's ModuleParameter holds it. */
struct Parameter
{
  std::string              tag, name, label, longflag, flag, index, channel, defaultValue, type;
  std::vector<std::string> elements;
  std::vector<std::string> fileExtensions;

  bool
  IsFlag() const
  {
    return !longflag.empty() || !flag.empty();
  }
  bool
  IsIndex() const
  {
    return !index.empty();
  }
  bool
  IsReturn() const
  {
    return channel == "output" && !IsFlag() && !IsIndex();
  }
};

struct Module
{
  std::vector<std::vector<Parameter>> groups;
};

Parameter
ReadParameter(const Element & element)
{
  Parameter parameter;
  parameter.tag = element.name;
  parameter.name = element.ChildText("name");
  parameter.label = element.ChildText("label");
  parameter.longflag = WithoutLeadingDashes(element.ChildText("longflag"));
  parameter.flag = WithoutLeadingDashes(element.ChildText("flag"));
  parameter.index = element.ChildText("index");
  parameter.channel = element.ChildText("channel");
  parameter.defaultValue = element.ChildText("default");
  if (parameter.name.empty())
  {
    parameter.name = parameter.longflag; // the parser names a parameter after its long flag
  }
  for (const auto & child : element.children)
  {
    if (child->name == "element")
    {
      parameter.elements.push_back(child->Trimmed());
    }
  }
  for (const auto & attribute : element.attributes)
  {
    if (attribute.first == "type")
    {
      parameter.type = attribute.second;
    }
    if (attribute.first == "fileExtensions")
    {
      std::stringstream list(attribute.second);
      std::string       extension;
      while (std::getline(list, extension, ','))
      {
        parameter.fileExtensions.push_back(extension);
      }
    }
  }
  return parameter;
}

/** Every rule a description breaks; empty when Slicer would load it and run the program. */
std::vector<std::string>
SlicerProblems(const std::string & xml, Module * module = nullptr)
{
  std::vector<std::string> problems;
  auto                     problem = [&problems](const Element & at, const std::string & text) {
    problems.push_back("line " + std::to_string(at.line) + ": " + text);
  };
  // ModuleDescriptionParser::Parse compares the first 6 bytes.
  if (xml.compare(0, 6, "<?xml ") != 0)
  {
    problems.push_back("the description must start with '<?xml ' (Slicer compares the first 6 bytes)");
  }
  const auto root = ParseXml(xml, problems);
  if (!root)
  {
    return problems;
  }
  if (root->name != "executable")
  {
    problem(*root, "<executable> must be the outermost element, not <" + root->name + ">");
    return problems;
  }
  for (const auto & name : ExecutableRequired)
  {
    if (!root->Child(name))
    {
      problem(*root, "<executable> lacks <" + name + "> (ModuleDescription.xsd)");
    }
  }
  std::set<std::string> names, longflags, flags, indices;
  Module                parsed;
  for (const auto & child : root->children)
  {
    if (ExecutableChildren.count(child->name) == 0)
    {
      problem(*child, "unrecognized element <" + child->name + "> in <executable>");
      continue;
    }
    if (child->name != "parameters")
    {
      if (!child->children.empty())
      {
        problem(*child, "<" + child->name + "> must hold text only");
      }
      continue;
    }
    const Element & group = *child;
    // The parser reads "advanced" only when it is the one attribute.
    for (const auto & attribute : group.attributes)
    {
      if (attribute.first != "advanced")
      {
        problem(group, "<parameters> accepts only the attribute advanced, not " + attribute.first);
      }
      else if (group.attributes.size() != 1)
      {
        problem(group, "Slicer ignores advanced unless it is the only attribute of <parameters>");
      }
      else if (attribute.second != "true" && attribute.second != "false")
      {
        problem(group, "advanced must be true or false, not '" + attribute.second + "'");
      }
    }
    if (group.ChildText("label").empty())
    {
      problem(group, "<parameters> needs a <label>");
    }
    parsed.groups.emplace_back();
    for (const auto & item : group.children)
    {
      if (item->name == "label" || item->name == "description")
      {
        continue;
      }
      if (SimpleTags.count(item->name) == 0 && FileTags.count(item->name) == 0)
      {
        problem(*item, "unrecognized element <" + item->name + "> in <parameters>");
        continue;
      }
      const Element & element = *item;
      const auto &    allowed = AllowedAttributes().at(element.name);
      for (const auto & attribute : element.attributes)
      {
        const auto rule = allowed.find(attribute.first);
        if (rule == allowed.end())
        {
          problem(element, "<" + element.name + "> does not accept the attribute " + attribute.first);
        }
        else if (!rule->second.empty() && rule->second.count(attribute.second) == 0)
        {
          problem(element,
                  "<" + element.name + "> " + attribute.first + "=\"" + attribute.second +
                    "\" is not a value Slicer accepts");
        }
      }
      bool sawFlag = false;
      bool sawIndex = false;
      for (const auto & part : element.children)
      {
        if (ParameterChildren.count(part->name) == 0)
        {
          problem(*part, "unrecognized element <" + part->name + "> in <" + element.name + ">");
          continue;
        }
        const std::string value = part->Trimmed();
        if (part->name == "name" && !IsSlicerIdentifier(value))
        {
          problem(*part, "<name> must match [A-Za-z_][A-Za-z0-9_]*: '" + value + "'");
        }
        if (part->name == "longflag" && !IsSlicerIdentifier(WithoutLeadingDashes(value)))
        {
          problem(*part, "<longflag> must match [A-Za-z_][A-Za-z0-9_]* after its leading dashes: '" + value + "'");
        }
        if (part->name == "flag" && WithoutLeadingDashes(value).size() != 1)
        {
          problem(*part, "<flag> must be one character: '" + value + "'");
        }
        if (part->name == "longflag" || part->name == "flag")
        {
          sawFlag = true;
          if (sawIndex)
          {
            problem(*part, "<" + part->name + "> cannot follow an <index>");
          }
        }
        if (part->name == "index")
        {
          sawIndex = true;
          if (sawFlag)
          {
            problem(*part, "<index> cannot follow a <longflag> or <flag>");
          }
          if (!IsDecimalInteger(value, 0, 1000000))
          {
            problem(*part, "<index> must be a non-negative integer: '" + value + "'");
          }
        }
        if (part->name == "channel" && value != "input" && value != "output")
        {
          problem(*part, "<channel> must be input or output: '" + value + "'");
        }
        if (part->name == "element" && element.name.find("enumeration") == std::string::npos)
        {
          problem(*part, "<element> belongs in an enumeration, not in <" + element.name + ">");
        }
        // ModuleDescriptionParser reads minimum, maximum and step of numbers;
        // Slicer's widgets clamp the default into [minimum, maximum].
        if (part->name == "constraints")
        {
          if (element.name != "integer" && element.name != "float" && element.name != "double")
          {
            problem(*part, "<constraints> belong to integer, float or double, not <" + element.name + ">");
          }
          for (const auto & bound : part->children)
          {
            if (bound->name != "minimum" && bound->name != "maximum" && bound->name != "step")
            {
              problem(*bound, "unrecognized element <" + bound->name + "> in <constraints>");
            }
            else if (!IsNumber(bound->Trimmed()))
            {
              problem(*bound, "<" + bound->name + "> must be a number: '" + bound->Trimmed() + "'");
            }
          }
          const std::string defaultText = element.ChildText("default");
          const std::string minimum = part->ChildText("minimum");
          const std::string maximum = part->ChildText("maximum");
          if (IsNumber(defaultText) && ((IsNumber(minimum) && std::stod(defaultText) < std::stod(minimum)) ||
                                        (IsNumber(maximum) && std::stod(defaultText) > std::stod(maximum))))
          {
            problem(*part, "the default " + defaultText + " lies outside [" + minimum + ", " + maximum + "]");
          }
        }
      }

      const Parameter   parameter = ReadParameter(element);
      const std::string where = "parameter '" + parameter.name + "'";
      if (parameter.name.empty())
      {
        problem(element, "a <" + element.name + "> without <name> or <longflag>");
      }
      else if (!names.insert(parameter.name).second)
      {
        problem(element, where + ": the name is used twice");
      }
      if (!parameter.longflag.empty() && !longflags.insert(parameter.longflag).second)
      {
        problem(element, where + ": the long flag --" + parameter.longflag + " is used twice");
      }
      // Slicer passes --returnparameterfile itself; programs built with GenerateCLP own --xml, --echo.
      for (const char * reserved : { "returnparameterfile", "processinformationaddress", "xml", "echo" })
      {
        if (parameter.longflag == reserved)
        {
          problem(element, where + ": --" + parameter.longflag + " is reserved");
        }
      }
      if (!parameter.flag.empty() && !flags.insert(parameter.flag).second)
      {
        problem(element, where + ": the flag -" + parameter.flag + " is used twice");
      }
      if (parameter.IsIndex() && !indices.insert(parameter.index).second)
      {
        problem(element, where + ": index " + parameter.index + " is used twice");
      }
      if (FileTags.count(parameter.tag) && parameter.tag != "point" && parameter.tag != "region" &&
          parameter.channel.empty())
      {
        problem(element, where + ": a <" + parameter.tag + "> needs a <channel> (input or output)");
      }
      if (parameter.IsReturn() && SimpleTags.count(parameter.tag) == 0)
      {
        problem(element, where + ": only simple types can be returned through --returnparameterfile");
      }
      if (!parameter.IsFlag() && !parameter.IsIndex() && !parameter.IsReturn())
      {
        problem(element, where + ": neither flag, index nor return parameter: Slicer cannot pass it");
      }
      // Values Slicer puts on the command line or in its widgets.
      if (parameter.tag == "boolean" && parameter.defaultValue != "true" && parameter.defaultValue != "false")
      {
        problem(element, where + ": a boolean default must be true or false, not '" + parameter.defaultValue + "'");
      }
      if ((parameter.tag == "integer" || parameter.tag == "integer-enumeration") && !parameter.defaultValue.empty() &&
          !IsDecimalInteger(parameter.defaultValue, -2147483647 - 1, 2147483647))
      {
        problem(element, where + ": the default '" + parameter.defaultValue + "' is not a 32-bit integer");
      }
      if ((parameter.tag == "float" || parameter.tag == "double" || parameter.tag == "float-enumeration" ||
           parameter.tag == "double-enumeration") &&
          !parameter.defaultValue.empty() && !IsNumber(parameter.defaultValue))
      {
        problem(element, where + ": the default '" + parameter.defaultValue + "' is not a number");
      }
      if (parameter.tag.find("enumeration") != std::string::npos)
      {
        if (parameter.elements.empty())
        {
          problem(element, where + ": an enumeration needs <element>s");
        }
        else if (std::find(parameter.elements.begin(), parameter.elements.end(), parameter.defaultValue) ==
                 parameter.elements.end())
        {
          problem(element, where + ": the default '" + parameter.defaultValue + "' is not one of its elements");
        }
      }
      // vtkSlicerCLIModuleLogic passes these as "--flag value" even when the
      // value is empty; only strings, files and vectors are left out when empty.
      const bool passedEvenIfEmpty = parameter.IsFlag() && parameter.tag != "boolean" &&
                                     SimpleTags.count(parameter.tag) && parameter.tag != "string" &&
                                     parameter.tag.find("-vector") == std::string::npos;
      if (passedEvenIfEmpty && parameter.defaultValue.empty())
      {
        problem(element,
                where + ": Slicer passes --" + parameter.longflag + " with its value, but it has no <default>");
      }
      parsed.groups.back().push_back(parameter);
    }
  }
  if (parsed.groups.empty())
  {
    problem(*root, "<executable> has no <parameters>");
  }
  if (module)
  {
    *module = parsed;
  }
  return problems;
}

// ---- the checker on broken descriptions -----------------------------------------------

std::string
Replace(std::string text, const std::string & from, const std::string & to)
{
  const auto at = text.find(from);
  Require(at != std::string::npos, "self-test: our XML lacks '" + from + "'");
  return text.replace(at, from.size(), to);
}

/** Each broken variant of a valid description must be refused. */
void
CheckTheChecker(const std::string & valid)
{
  const std::vector<std::pair<std::string, std::string>> broken = {
    { "a dashed long flag (the flag Slicer refused before: foreground-rule)",
      Replace(valid, "<longflag>foregroundRule</longflag>", "<longflag>foreground-rule</longflag>") },
    { "a name with a dash", Replace(valid, "<name>fullyConnected</name>", "<name>fully-connected</name>") },
    { "a name starting with a digit", Replace(valid, "<name>feret</name>", "<name>3feret</name>") },
    { "a two-letter flag", Replace(valid, "<longflag>feret</longflag>", "<flag>fe</flag>") },
    { "no <?xml start", valid.substr(valid.find("<executable>")) },
    { "text before <?xml", " " + valid },
    { "not well formed", Replace(valid, "</executable>", "</executablex>") },
    { "an unknown element", Replace(valid, "<category>", "<bogus/><category>") },
    { "an unknown element in a parameter", Replace(valid, "<name>feret</name>", "<name>feret</name><hint>x</hint>") },
    { "an unknown parameter type",
      Replace(
        valid, "<label>Results</label>", "<label>Results</label><bool><name>x</name><longflag>x</longflag></bool>") },
    { "an unknown attribute",
      Replace(valid, "<parameters advanced=\"true\">", "<parameters advanced=\"true\" collapsed=\"true\">") },
    { "advanced not true/false", Replace(valid, "<parameters advanced=\"true\">", "<parameters advanced=\"yes\">") },
    { "a table type other than color", Replace(valid, "<table fileExtensions=\".csv\">", "<table type=\"csv\">") },
    { "an image type Slicer does not know", Replace(valid, "<image type=\"label\">", "<image type=\"labels\">") },
    { "index after a long flag",
      Replace(valid, "<longflag>labels</longflag>", "<longflag>labels</longflag><index>1</index>") },
    { "a long flag after an index", Replace(valid, "<index>0</index>", "<index>0</index><longflag>input</longflag>") },
    { "a negative index", Replace(valid, "<index>0</index>", "<index>-1</index>") },
    { "a duplicate name", Replace(valid, "<name>feret</name>", "<name>fullyConnected</name>") },
    { "a duplicate long flag", Replace(valid, "<longflag>feret</longflag>", "<longflag>fullyConnected</longflag>") },
    { "a reserved long flag",
      Replace(valid, "<longflag>feret</longflag>", "<longflag>returnparameterfile</longflag>") },
    { "a boolean default that is not true/false", Replace(valid, "<default>false</default>", "<default>no</default>") },
    { "an integer default that is not an integer",
      Replace(valid, "<default>0</default>\n    </integer>", "<default>0.5</default>\n    </integer>") },
    { "an enumeration default not among its elements",
      Replace(valid, "<default>auto</default>", "<default>gpu</default>") },
    { "a flagged integer without default", Replace(valid, "<default>0</default>\n    </integer>", "\n    </integer>") },
    { "a constraint that is not a number", Replace(valid, "<maximum>2147483647</maximum>", "<maximum>lots</maximum>") },
    { "an unknown element in constraints", Replace(valid, "<step>1</step>", "<stride>1</stride>") },
    { "a default outside the constraints", Replace(valid, "<minimum>0</minimum>", "<minimum>1</minimum>") },
    { "constraints on a boolean",
      Replace(valid,
              "<default>false</default>\n    </boolean>",
              "<default>false</default><constraints><minimum>0</minimum></constraints>\n    </boolean>") },
    { "a channel other than input/output", Replace(valid, "<channel>input</channel>", "<channel>in</channel>") },
    { "an image without channel", Replace(valid, "<channel>input</channel>", "") },
    { "an image as a return parameter", Replace(valid, "<longflag>labels</longflag>", "") },
    { "a parameter Slicer cannot pass", Replace(valid, "<longflag>feret</longflag>", "") },
    { "<element> outside an enumeration",
      Replace(valid, "<name>feret</name>", "<name>feret</name><element>a</element>") },
    { "a group without label", Replace(valid, "<label>Results</label>", "") },
  };
  int missed = 0;
  for (const auto & variant : broken)
  {
    const auto problems = SlicerProblems(variant.second);
    std::cout << (problems.empty() ? "MISSED  " : "refused ") << variant.first;
    if (!problems.empty())
    {
      std::cout << ": " << problems.front();
    }
    std::cout << "\n";
    missed += problems.empty() ? 1 : 0;
  }
  Require(missed == 0, "the checker missed " + std::to_string(missed) + " broken description(s)");
}

// ---- the command line Slicer builds -----------------------------------------------

/** The argv vtkSlicerCLIModuleLogic builds for an executable module: the
 *  program, --returnparameterfile when there are return parameters, then the
 *  flagged parameters in their order in the description, then the index
 *  parameters by index. `values` holds what the user set (by parameter name);
 *  the rest keep their defaults. Images and tables are files in `folder`. */
std::vector<std::string>
SlicerCommandLine(const Module &                             module,
                  const std::string &                        program,
                  const std::string &                        folder,
                  const std::map<std::string, std::string> & values,
                  std::map<std::string, std::string> &       files,
                  std::string &                              returnFile)
{
  std::vector<std::string> argv = { program };
  const std::string        prefix = folder + "/" + std::to_string(::getpid()) + "_";
  bool                     hasReturn = false;
  for (const auto & group : module.groups)
  {
    for (const auto & parameter : group)
    {
      hasReturn = hasReturn || parameter.IsReturn();
    }
  }
  if (hasReturn)
  {
    returnFile = prefix + "A1b2C3d4E5.params";
    argv.push_back("--returnparameterfile");
    argv.push_back(returnFile);
  }
  auto valueOf = [&values](const Parameter & parameter) {
    const auto found = values.find(parameter.name);
    return found != values.end() ? found->second : parameter.defaultValue;
  };
  auto fileFor = [&](const Parameter & parameter) {
    std::string extension = parameter.fileExtensions.empty() ? "" : parameter.fileExtensions.front();
    if (extension.empty())
    {
      extension = parameter.tag == "image" ? ".nrrd" : parameter.tag == "table" ? ".tsv" : ".txt";
    }
    const std::string path = prefix + parameter.name + extension;
    files[parameter.name] = path;
    return path;
  };
  std::map<int, const Parameter *> indexed;
  for (const auto & group : module.groups)
  {
    for (const auto & parameter : group)
    {
      if (parameter.IsIndex())
      {
        indexed[std::stoi(parameter.index)] = &parameter;
        continue;
      }
      if (!parameter.IsFlag())
      {
        continue;
      }
      const std::string flag = parameter.longflag.empty() ? "-" + parameter.flag : "--" + parameter.longflag;
      const std::string value = valueOf(parameter);
      if (parameter.tag == "boolean")
      {
        if (value == "true")
        {
          argv.push_back(flag);
        }
      }
      else if (FileTags.count(parameter.tag))
      {
        // Only nodes the user selected are passed; this session selects every one.
        argv.push_back(flag);
        argv.push_back(fileFor(parameter));
      }
      else if (parameter.tag == "string" || parameter.tag.find("-vector") != std::string::npos)
      {
        if (!value.empty())
        {
          argv.push_back(flag);
          argv.push_back(value);
        }
      }
      else
      {
        argv.push_back(flag);
        argv.push_back(value);
      }
    }
  }
  for (const auto & entry : indexed)
  {
    const Parameter & parameter = *entry.second;
    argv.push_back(FileTags.count(parameter.tag) ? fileFor(parameter) : valueOf(parameter));
  }
  return argv;
}

std::string
ProgramXml(const std::string & program, const std::string & dir)
{
  RunOptions options;
  options.argv = { program, "--xml" };
  options.workDir = dir;
  const auto      started = std::chrono::steady_clock::now();
  const RunResult result = Run(options);
  const double    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  Require(result.exitCode == 0, "--xml failed: " + result.err);
  Require(result.err.empty(), "--xml wrote to stderr, which Slicer treats as a broken module: " + result.err);
  Require(seconds < 5.0, "--xml took more than 5 s");
  return result.out;
}

int
CheckRules(const std::string & program, const std::string & dir, const std::string & xmlFile)
{
  const std::string xml = xmlFile.empty() ? ProgramXml(program, dir) : ReadText(xmlFile);
  const auto        problems = SlicerProblems(xml);
  for (const auto & problem : problems)
  {
    std::cout << "Slicer would refuse: " << problem << "\n";
  }
  Require(problems.empty(), std::to_string(problems.size()) + " rule(s) of Slicer's parser broken");
  std::cout << "the description follows Slicer's rules\n";
  if (xmlFile.empty())
  {
    CheckTheChecker(xml);
  }
  return 0;
}

/** One Slicer session: the user's choices, the input volume, what the outputs must be. */
struct Session
{
  std::string                        name;
  std::map<std::string, std::string> values;
  Expectation                        expectation;
  bool                               labelInput = false;  ///< the input volume is a label map (background 0)
  bool                               splitLabels = false; ///< each value's components are the objects
};

/** A label map's outputs (background 0). Label input: the label image
 *  holds the input's values and the table one row per value, in increasing
 *  order, with its pixel count. Split labels: every object lies in one value,
 *  and each value has as many objects as ConnectedComponentImageFilter
 *  finds in its mask. Returns the number of objects. */
size_t
CheckLabelMapOutputs(const std::string & input,
                     const std::string & labelsPath,
                     const std::string & csvPath,
                     const Session &     session)
{
  using ImageType = itk::Image<unsigned int, 3>;
  const auto read = [](const std::string & path) {
    auto reader = itk::ImageFileReader<ImageType>::New();
    reader->SetFileName(path);
    reader->Update();
    return ImageType::Pointer(reader->GetOutput());
  };
  const auto values = read(input);
  const auto labels = read(labelsPath);
  Require(labels->GetLargestPossibleRegion() == values->GetLargestPossibleRegion(),
          "the label image's region differs from the input's");
  std::map<unsigned int, size_t>           pixelsOfValue;
  std::map<unsigned int, size_t>           pixelsOfLabel;
  std::map<unsigned int, unsigned int>     valueOfLabel;
  itk::ImageRegionConstIterator<ImageType> in(values, values->GetLargestPossibleRegion());
  itk::ImageRegionConstIterator<ImageType> out(labels, labels->GetLargestPossibleRegion());
  for (; !in.IsAtEnd(); ++in, ++out)
  {
    Require((in.Get() == 0) == (out.Get() == 0), "the label image's background is not the input's");
    if (in.Get() == 0)
    {
      continue;
    }
    ++pixelsOfValue[in.Get()];
    ++pixelsOfLabel[out.Get()];
    Require(session.splitLabels || out.Get() == in.Get(), "a label differs from the input's value");
    Require(valueOfLabel.emplace(out.Get(), in.Get()).first->second == in.Get(), "an object spans two values");
  }
  size_t expected = pixelsOfValue.size();
  if (session.splitLabels)
  {
    expected = 0;
    for (const auto & value : pixelsOfValue)
    {
      using MaskType = itk::Image<unsigned char, 3>;
      auto mask = MaskType::New();
      mask->SetRegions(values->GetLargestPossibleRegion());
      mask->Allocate();
      itk::ImageRegionIterator<MaskType> m(mask, mask->GetLargestPossibleRegion());
      for (in.GoToBegin(); !in.IsAtEnd(); ++in, ++m)
      {
        m.Set(in.Get() == value.first ? 1 : 0);
      }
      auto components = itk::ConnectedComponentImageFilter<MaskType, ImageType>::New();
      components->SetInput(mask);
      components->SetFullyConnected(session.expectation.fullyConnected);
      components->Update();
      expected += components->GetObjectCount();
    }
  }
  Require(pixelsOfLabel.size() == expected,
          "the label image has " + std::to_string(pixelsOfLabel.size()) + " objects, not " + std::to_string(expected));
  const auto lines = Lines(ReadText(csvPath));
  Require(lines.size() == expected + 1, "the table has " + std::to_string(lines.size() - 1) + " rows");
  auto row = pixelsOfLabel.begin();
  for (size_t i = 1; i < lines.size(); ++i, ++row)
  {
    const auto cells = SplitCsvLine(lines[i]);
    Require(std::stoul(cells.at(0)) == row->first,
            "row " + std::to_string(i) + " is label " + cells.at(0) + ", not " + std::to_string(row->first));
  }
  return expected;
}

template <typename TPixel>
void
RunSession(const std::string &         program,
           const std::string &         dir,
           const Module &              module,
           const Session &             session,
           const std::vector<double> & inputValues,
           unsigned                    seed)
{
  std::cout << "---- session " << session.name << " (input seed " << seed << ")\n";
  const std::string folder = dir + "/" + session.name; // Slicer's temporary folder
  FreshDirectory(folder);
  std::map<std::string, std::string> files;
  std::string                        returnFile;
  const auto argv = SlicerCommandLine(module, program, folder, session.values, files, returnFile);
  Require(files.count("inputVolume") && files.count("outputLabels") && files.count("outputTable"),
          "the description lacks the input volume, the label volume or the table");
  // Slicer writes input volumes as NRRD with its own geometry: non-unit spacing.
  MakeImage<TPixel, 3>(files["inputVolume"], itk::Size<3>{ { 23, 17, 11 } }, inputValues, seed);
  // Every node is selected: the feature volume too, a CT-like int16 volume on the input's grid.
  const bool featureVolume = files.count("featureImage") != 0;
  if (featureVolume)
  {
    MakeImage<short, 3>(files["featureImage"], itk::Size<3>{ { 23, 17, 11 } }, { -1000, -80, 0, 40, 700 }, seed + 1);
  }

  RunOptions options;
  options.argv = argv;
  options.workDir = folder;
  const RunResult result = RunAndShow(options);
  Require(!result.Signalled() && result.exitCode == 0, "the program failed on Slicer's command line");
  Require(result.out.find("<filter-progress>") != std::string::npos, "no progress lines for Slicer");
  Require(result.out.find("<filter-end>") != std::string::npos, "no <filter-end> for Slicer");
  const size_t components =
    session.labelInput
      ? CheckLabelMapOutputs(files["inputVolume"], files["outputLabels"], files["outputTable"], session)
      : CheckOutputs<3>(files["inputVolume"], files["outputLabels"], files["outputTable"], session.expectation);
  CheckReturnFile(returnFile, components);
  if (featureVolume)
  {
    const auto header = SplitCsvLine(Lines(ReadText(files["outputTable"])).front());
    Require(std::find(header.begin(), header.end(), "Mean") != header.end() &&
              std::find(header.begin(), header.end(), "WeightedFlatness") != header.end(),
            "the table lacks the feature volume's intensity columns");
  }
  std::cout << "session " << session.name << ": " << components << " components, every output checked\n";
}

int
CheckRun(const std::string & program, const std::string & dir)
{
  Module     module;
  const auto problems = SlicerProblems(ProgramXml(program, dir), &module);
  Require(problems.empty(), "the description breaks Slicer's rules; run the rules check");

  // Defaults, but fully connected.
  Session connected{ "defaults-fully-connected", { { "fullyConnected", "true" } }, {} };
  connected.expectation.fullyConnected = true;
  RunSession<unsigned char>(program, dir, module, connected, { 0, 0, 1, 2 }, 21);

  // The equal rule with a value, the CPU, optional attributes on, perimeter off.
  Session equal{ "equal-rule-cpu",
                 { { "foregroundRule", "equal" },
                   { "foregroundValue", "2" },
                   { "backend", "cpu" },
                   { "noPerimeter", "true" },
                   { "feret", "true" },
                   { "orientedBoundingBox", "true" } },
                 {} };
  equal.expectation.equalRule = true;
  equal.expectation.value = 2;
  equal.expectation.perimeterColumns = false;
  equal.expectation.feretColumn = true;
  equal.expectation.orientedBoxColumns = true;
  RunSession<short>(program, dir, module, equal, { -3, 0, 2, 2, 7 }, 22);

  // The equal rule without a value (the empty string default): the type's maximum, 255.
  Session maximum{ "equal-rule-type-maximum", { { "foregroundRule", "equal" } }, {} };
  maximum.expectation.equalRule = true;
  maximum.expectation.value = 255;
  RunSession<unsigned char>(program, dir, module, maximum, { 0, 1, 255, 255 }, 23);

  // A background value other than 0.
  Session background{ "background-value", { { "backgroundValue", "1" } }, {} };
  background.expectation.value = 1;
  RunSession<unsigned char>(program, dir, module, background, { 1, 1, 0, 9 }, 24);

  // A label map: Slicer passes the rule's default value with the flag.
  Session labelMap{ "label-map", { { "labelInput", "true" } }, {} };
  labelMap.labelInput = true;
  RunSession<unsigned char>(program, dir, module, labelMap, { 0, 0, 3, 7, 200 }, 25);
  Session split{ "split-labels", { { "splitLabels", "true" }, { "fullyConnected", "true" } }, {} };
  split.labelInput = true;
  split.splitLabels = true;
  split.expectation.fullyConnected = true;
  RunSession<unsigned char>(program, dir, module, split, { 0, 0, 0, 3, 7 }, 26);
  return 0;
}

} // namespace

int
main(int argc, char * argv[])
{
  if (argc < 4 || argc > 5)
  {
    std::cerr << "Usage: " << argv[0] << " PROGRAM WORKDIR rules|run [XMLFILE]\n";
    return 2;
  }
  const std::string dir = argv[2];
  const std::string mode = argv[3];
  try
  {
    FreshDirectory(dir);
    if (mode == "rules")
    {
      return CheckRules(argv[1], dir, argc == 5 ? argv[4] : "");
    }
    if (mode == "run")
    {
      return CheckRun(argv[1], dir);
    }
    std::cerr << "unknown mode " << mode << "\n";
    return 2;
  }
  catch (const std::exception & error)
  {
    std::cerr << "FAILED (" << mode << ", files kept in " << dir << "): " << error.what() << "\n";
    return 1;
  }
}
