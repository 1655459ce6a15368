"""One-word place names from GeoNames (https://www.geonames.org/, CC BY 4.0):
cities of 100,000 people or more (15,000 in the countries that
write German), US states and countries, without the names that are also
German words (pure data, written by ``bench/places.py``).
"""

from typing import Final

_NAMES: Final = """
    Aachen Aalborg Aarau Abadan Abaetetuba Abakaliki Abakan Abbotsford Abbottabad Abengourou
    Abeokuta Aberdeen Abha Abidjan Abiko Abilene Abobo Abohar Abomey Abomey-Calavi Abuja Abéché
    Acarigua Accra Achalpur Acheng Achern Achim Achinsk Ad-Damazin Ad-Damir Adachi Adana Adelaide
    Aden Adiwerna Adlershof Adliswil Admiralteisky Ado-Ekiti Adoni Afghanistan Afyonkarahisar Agadez
    Agadir Agartala Agege Ageo Agra Aguascalientes Ahar Ahaus Ahilyanagar Ahmedabad Ahrensburg
    Ahuntsic-Cartierville Ahvaz Aichach Aihara Aihui Airoli Aizawl Aizu-Wakamatsu Ajapnyak Ajax
    Ajdabiya Ajegunle Ajman Ajmer Akademicheskoe Akashi Akishima Akita Akola Akowonjo Akron Aksaray
    Aktau Aktobe Akure Al-Junaynah Al-Kut Al-Musayab Alabama Alagoinhas Alamar Alandur Alanya
    Alappuzha Alasia Alaska Albacete Albania Albany Alberton Albstadt Albuquerque Alchevsk
    Alcobendas Alcorcón Aleppo Alexandra Alexandria Aley Alfeld Alfter Algeciras Algeria Algiers
    Alhambra Aliayabiagba Alicante Alimosho Allentown Allschwil Almaty Almendares Almería Alsdorf
    Alsergrund Alsfeld Alsterdorf Alt-Hohenschönhausen Altamira Altena Altenburg Altglienicke Altona
    Altona-Altstadt Altona-Nord Alvorada Alwar Alzey Amadora Amagasaki Amaigbo Amanfrom Amarapura
    Amaravati Amarillo Amasya Ambarnath Ambato Ambattur Amberg Ambon Ambur Americana Amersfoort
    Amherst Amiens Amman Ampang Amravati Amreli Amritsar Amroha Amsterdam Amstetten Anaco Anaheim
    Anand Ananindeua Anantapur Anantnag Anbu Anchorage Anda Anderlecht Andernach Andijon Andong
    Andorra Andritz Angarsk Angermünde Angers Angoche Angola Angono Angren Anguilla Ankang Ankara
    Anliu Annaba Annaberg-Buchholz Anning Anqing Anqiu Ansbach Ansfelden Anshan Anshun Antakya
    Antalya Antananarivo Antarctica Antioch Antipolo Antofagasta Antsirabe Antsiranana Anyama Anyang
    Anápolis Aomori Apalit Apatzingán Apeldoorn Aplerbeck Apolda Apopa Apucarana Aqsu Arabkir
    Aracaju Arad Araguari Araguaína Arakawa Arapiraca Arapongas Arar Araraquara Araras Araruama
    Araucária Araure Araxá Araçatuba Arcahaie Archway Arequipa Arezzo Arganzuela Argenteuil
    Argentina Arheilgen Arica Arifwala Arizona Arjawinangun Arkansas Arlington Arlit Armavir Armenia
    Arnavutköy Arnhem Arnsberg Arnstadt Arrah Arsuz Artux Artëm Aruba Arusha Arvada Aryanah Arzamas
    Asahikawa Asaka Aschaffenburg Ascheberg Aschersleben Ashaiman Ashdod Ashgabat Ashikaga Ashkelon
    Asmara Aspern Assis Assiut Astana Astanajapura Astoria Astrakhan Asunción Atani Atbara Athens
    Atibaia Atlanta Atsiaman Atsugi Attendorn Atyrau Auckland Auerbach Augsburg Aurangabad Aurich
    Aurora Austin Australia Austria Avadi Avellaneda Avtozavodskyi Awasa Awka Ayacucho Azamgarh
    Azare Azcapotzalco Azerbaijan Açailândia Babenhausen Bacabal Bachuan Backnang Bacoor Badajoz
    Badalona Baden-Baden Badin Badlapur Baesweiler Bafoussam Bagaha Bagalkot Bagerhat Baghdad Bago
    Baguio Bahadurgarh Bahamas Baharampur Bahawalnagar Bahawalpur Bahraigh Bahrain Bahçelievler
    Baicheng Baidoa Baiersbronn Baise Baisha Baishan Baiyin Bakersfield Baku Bakwa Balakovo
    Balashikha Balasore Balbala Balikpapan Balingen Baliuag Balkh Ballarat Ballari Balombo Balsas
    Baltimore Balvanera Bama Bamako Bamberg Bamenda Bandung Banfora Bangaon Bangkok Bangladesh
    Bangui Banjar Banjaran Banjarbaru Banjarmasin Bannu Banqiao Banyuwangi Baoding Baoji Baoshan
    Baotou Baqubah Barakaldo Baraki Baranagar Baranovichi Barbacena Barbados Barcarena Barcelona
    Bareilly Bari Bariadi Barinas Barishal Barking Barmbek-Nord Barmbek-Süd Barnaul Barquisimeto
    Barrancabermeja Barranquilla Barreiras Barretos Barrie Barshi Barueri Baruta Barysaw Basel
    Bashan Basildon Basingstoke Basrah Bassum Basuo Bata Batam Batang Batangas Bataysk Bath Bathinda
    Batikent Batman Batna Battagram Battambang Batu Batumi Baturaja Baubau Bauchi Baumschulenweg
    Baunatal Bauru Bautzen Bawshar Bayambang Bayamo Bayamón Bayawan Bayreuth Bayugan Bazhong
    Beaumont Beckingen Beckum Becontree Bedburg Bedford Beed Beersheba Begusarai Beibei Beihai
    Beijing Beiliu Beining Beipiao Beira Beirut Bekasi Belagavi Belarus Belawan Belfast Belgium
    Belgorod Belgrano Belize Bellevue Bellinzona Bello Belém Bemerode Bemowo Bender Bendigo Bendorf
    Benfica Bengaluru Bengbu Benghazi Bengkulu Benguela Beni Benin Benoni Bensheim Benxi Beppu
    Berazategui Berbera Berbérati Bercham Berdyansk Berezniki Bergamo Bergedorf Bergheim Bergkamen
    Bergneustadt Berkane Berkeley Berlin Bermuda Bern Bernburg Berrechid Bertoua Besançon Betim
    Bettiah Beverungen Bexbach Bexley Beylikdüzü Bhadrak Bhadreswar Bhakkar Bharatpur Bhatara
    Bhavnagar Bhawana Bhayandar Bhetia Bhilai Bhilwara Bhimavaram Bhind Bhisho Bhiwadi Bhiwandi
    Bhopal Bhubaneswar Bhuj Bhusawal Bhutan Bibirevo Bida Bidar Biebrich Bielany Bielefeld
    Bielsko-Biala Biesdorf Bietigheim-Bissingen Bijie Bikaner Bilbao Bilbeis Bilderstöckchen
    Bilimora Billings Billstedt Bima Bimbo Binangonan Bingöl Binjai Bintulu Binzhou Biratnagar
    Birendranagar Birgañj Birigui Birkenhead Birmingham Biryulëvo Bishan Bishkek Bishoftu Biskra
    Bissau Bitterfeld-Wolfen Bitung Biysk Bizerte Biñan Blackburn Blackpool Blagoveshchensk
    Blankenburg Blankenfelde-Mahlow Blantyre Blasewitz Blida Blieskastel Blitar Bloemfontein
    Blomberg Bludenz Blumenau Bobingen Bobo-Dioulasso Bobruysk Bocholt Bochum Bochum-Werne Bockum
    Bocoio Bogenhausen Bogor Bogorodskoye Bogotá Bogra Bohuniya Boise Bokhtar Boksburg Bole Bolivia
    Bologna Bolton Bolu Bolzano Boma Bondoukou Bonon Bontang Boppard Borama Bordeaux Borivli Borna
    Bornheim Borshchahivka Boshan Boston Botad Bothfeld Botshabelo Botswana Bottrop Botucatu Bouaflé
    Bouaké Boulder Boulogne-Billancourt Bournemouth Bouskoura Boyeros Bozhou Brackel Brackenheim
    Bradford Braga Bragança Brahmapur Brakel Brakpan Brampton Bramsche Brandon Brantford Brasilandia
    Brasília Brateyevo Bratislava Bratsk Braunschweig Brazil Brazzaville Breda Bregenz Bremen
    Bremerhaven Bremervörde Brent Brescia Brest Breves Bridgeport Brighton Brigittenau Brilon
    Brisbane Bristol Brits Britz Brno Brooklyn Brovary Brownsville Bruchköbel Bruchsal Bruckmühl
    Brugge Brunei Brusque Brussels Bryansk Brühl Bucaramanga Bucharest Buckow Buda Budapest Budaun
    Budta Buea Buenaventura Buenavista Buffalo Buguma Bujumbura Bukama Bukavu Bukhara Bukittinggi
    Bukoba Bulandshahr Bulaon Bulawayo Bulgaria Bumba Bunamwaya Bunda Bunia Bunkyo Buraydah Burayu
    Burbank Burewala Burgas Burgdorf Burghausen Burglesum Burgos Burlington Burnaby Burnley Bursa
    Burscheid Burundi Busan Bushehr Bushwick Butanta Butembo Butterworth Butuan Butzbach Buxar
    Buxtehude Bydgoszcz Bytom Béchar Bégoua Béjaïa Böblingen Bönen Bückeburg Büdingen Bülach Büren
    Bürstadt Büyükçekmece Cabimas Cabinda Cabudare Cabudwaaq Cabuyao Cachoeirinha Cacuaco Cadiz Caen
    Cagliari Cagua Caieiras Cainta Cairns Cairo Cajamarca Calabar Calabozo Calama Calamba Calasiao
    Calgary Cali California Callao Caloocan Calumbo Calumpit Camagüey Camama Camaragibe Camayenne
    Camaçari Cambodia Cambridge Cambé Cameroon Cametá Campeche Campinas Canada Canberra Cancún
    Candelaria Cangaiba Cangzhou Canoas Cap-Haïtien Capas Capiatá Carabanchel Caracas Caraguatatuba
    Carapicuíba Cardiff Cariacica Carletonville Carlsbad Carmona Carnot Carolina Carora Carouge
    Carrefour Carrollton Cartagena Cartago Caruaru Cary Carúpano Casablanca Cascavel Castanhal
    Castelar Castrop-Rauxel Catacamas Catalão Catamarca Catanduva Catania Catbalogan Catchiungo
    Caucaia Caxias Cazenga Caála Ceilândia Celaya Celle Centennial Centralniy Centurion
    Cergy-Pontoise Cerro Chad Chakwal Chakwama Chalco Chaman Chamartín Chamberí Chandannagar
    Chandigarh Chandler Chanduasi Changchun Changde Changhua Changji Changle Changning Changsha
    Changshu Changwon Changyi Changyuan Changzheng Changzhi Changzhou Chaohu Chaoyang Chaozhou
    Chapecó Charallave Charleroi Charleston Charlotte Charlottenburg Charlottenburg-Nord Charsadda
    Chas Chattanooga Chattogram Chatuchak Cheboksary Chelmsford Cheltenham Chelyabinsk Chemnitz
    Chengde Chengdu Chenggu Chenghua Chengqiao Chengtangcun Chengzhong Chennai Chenzhou Cheonan
    Cheras Cheremushky Cherepovets Cherkasy Cherkessk Chernihiv Chernivtsi Cherëmushki Chesapeake
    Chesterfield Chetumal Chhatarpur Chiba Chicago Chichawatni Chichicastenango Chiclayo Chico
    Chicoloapan Chifeng Chigasaki Chihuahua Chikusei Chilanzar Chile Chililabombwe Chilliwack
    Chillán Chilpancingo Chimbote Chimoio China Chinandega Chinatown Chinautla Chingola Chiniot
    Chinju Chipata Chiquimula Chirchiq Chirmiri Chishtian Chisinau Chita Chitato Chitradurga
    Chittoor Chittorgarh Chitungwiza Chizhou Chlef Choloma Cholula Chongjin Chongming Chongqing
    Chongzuo Chorzów Christchurch Chumakivskyi Chuncheon Chunga Chungju Chunian Chust Chuxiong
    Chuzhou Chía Chóngfú Ciamis Ciampea Cianjur Cibinong Cienfuegos Cikampek Cikarang Cikupa Cilacap
    Cilegon Cileungsir Cileunyi Cimahi Cincinnati Ciputat Cirebon Citeureup Cixi Cizre Clarksville
    Clausthal-Zellerfeld Clearwater Clermont-Ferrand Cleveland Cloppenburg Clovis Cluj-Napoca
    Coacalco Coatepeque Coatzacoalcos Coburg Cobán Cochabamba Codó Coesfeld Coimbatore Coimbra
    Colatina Colchester Colima Colina Colombia Colombo Colorado Columbia Columbus Comilla Comitán
    Comoros Conakry Concepcion Concepción Concordia Connecticut Constantine Contagem Copacabana
    Copenhagen Copiapó Coquimbo Coquitlam Cork Coro Coronel Corrientes Coswig Cotabato Cotia Cotonou
    Cottbus Coventry Coyoacán Crailsheim Craiova Crato Crawley Criciúma Crimmitschau Croatia Croydon
    Cuauhtémoc Cuautitlán Cuautla Cuba Cubatão Cuddalore Cuenca Cuernavaca Cuiabá Culiacán Cumaná
    Curacao Curicó Curitiba Cursino Curug Cusco Cuttack Cuxhaven Cuíto Cypress Cyprus Czechia
    Córdoba Cúcuta Dabou Dachang Dachau Dadu Daegu Daejeon Dagenham Dagupan Dahlem Dajal Dakar
    Dakhla Dali Dalian Daliang Dallas Daloa Damanhur Damascus Damietta Dammam Damoh Dandong Danlí
    Danshui Daoukro Daqing Darbhanga Darmstadt Darnah Darnytsya Dartmouth Darwin Dasha Dasmariñas
    Datia Datong Datun Daule Daur Davangere Davao Davenport Davie Dawei Dawukou Daxing Daye Dayrah
    Dayton Dazhou Debrecen Deesa Deggendorf Dehradun Dehui Delaware Delbrück Delhi Delicias
    Delitzsch Delmas Delmenhorst Dengzhou Denizli Denmark Denpasar Denton Denver Deoghar Deoli
    Deoria Depok Derbent Derince Desna Desnyanskyi Dessalines Dessau Dessie Detmold Detroit Deutz
    Dewas Deyang Dezful Dezhou Dhaka Dhamtari Dhanbad Dharashiv Dharmavaram Dhaulpur Dhirkot Dhule
    Diadema Dibrugarh Didao Dieburg Diepholz Diepsloot Dietikon Dietzenbach Digos Digri Dihok Dijon
    Dikirnis Dili Dillenburg Dillingen Dimitrovgrad Dinaig Dinajpur Dinapore Dindigul Dingolfing
    Dingxi Dingzhou Dinslaken Diourbel Ditzingen Divinópolis Divo Dixinn Djelfa Djibouti Dnipro
    Dniprovskyi Dodoma Doha Dohad Doilungdêqên Dokri Dolisie Dombivali Dominica Donaueschingen
    Donaustadt Donauwörth Doncaster Donetsk Dongguan Donghai Dongling Dongtai Dongyang Dongying
    Dordrecht Dormagen Dornbirn Dorsten Dorstfeld Dortmund Dosquebradas Dotzheim Douala Douliu
    Dourados Downey Drammen Dreieich Drensteinfurt Dresden Dubai Dublin Dubréka Dudelange Duderstadt
    Dudley Duekoué Duisburg Dulsberg Dumaguete Dumai Dundee Dundo Dunedin Dunhua Dunhuang Durban
    Durg Durgapur Durham Durrës Dushanbe Dusit Duyun Dzerzhinsk Döbeln Döbling Dübendorf Dülmen
    Düren Düsseldorf Düsseldorf-Pempelfort Düzce Eastbourne Eberbach Eberswalde Ebetsu Ebina
    Eckernförde Ecuador Edewecht Edinburgh Edirne Edison Edmonton Edogawe Edéa Efon-Alaaye Eggenberg
    Eggenstein-Leopoldshafen Egypt Ehingen Eidelstedt Eilbek Eilenburg Eimsbüttel Einbeck Eindhoven
    Einsiedeln Eisenach Eisenhüttenstadt Eisenzicken Eislingen Eitorf Eixample Ejido Ejigbo
    Ekibastuz Elbasan Eldoret Elgin Elista Elizabeth Ellwangen Elmhurst Elmschenhagen Elmshorn
    Elsdorf Eltville Eluru Emalahleni Emden Eminabad Emmen Emmendingen Emmerich Emsdetten Encheng
    Engels Engelskirchen Ennepetal Ennigerloh Enschede Ensenada Enshi Entebbe Enterprise Enugu
    Envigado Eppelborn Eppendorf Eppingen Epworth Erbil Erding Erebuni Erftstadt Erfurt Eritrea
    Erkelenz Erkrath Ermelo Erode Errachidia Erwitte Erzincan Erzurum Eschborn Eschwege Escondido
    Escuintla Eselsberg Esenler Esenyurt Eslamshahr Esmeraldas Esna Espelkamp Espoo Esslingen
    Estonia Eswatini Etah Ethiopia Etobicoke Ettlingen Etwatwa Eugene Eunápolis Euskirchen Eutin
    Evansville Evaton Everett Eving Exeter Ezeiza Ezhou Facatativá Fairfield Faisalabad Falkensee
    Fangchenggang Fanling Fargo Faridabad Farmsen-Berne Fatehpur Fatih Fayetteville Fellbach Fendou
    Fengcheng Fenghuang Fengshan Fengxiang Fennpfuhl Fergana Ferrara Fianarantsoa Fiji Filderstadt
    Finland Finsterwalde Firozpur Fischeln Flensburg Florence Florencia Florianópolis Florida
    Floridablanca Floridsdorf Flörsheim Foggia Fontana Fontanar Forchheim Forlì Formosa Fortaleza
    Fortechnyi Foshan Foumban Franca Franceville Francistown Frankenberg Frankenthal Frauenfeld
    Freetown Freiberg Freiburg Freilassing Freising Freital Fremont Fresnillo Fresno Freudenberg
    Freudenstadt Fribourg Friedberg Friedenau Friedrichsdorf Friedrichsfelde Friedrichshafen
    Friedrichshagen Friedrichshain Friesoythe Frisco Frohnau Fröndenberg Fuding Fuencarral
    Fuenlabrada Fujairah Fuji Fujieda Fujimino Fujinomiya Fujisawa Fukuoka Fukushima Fukuyama Fulda
    Fuling Fullerton Funchal Funtua Funza Fushun Fuxin Fuyang Fuyu Fuzhou Fünfhaus Fürstenfeldbruck
    Fürstenwalde Fürth Füssen Gabela Gabon Gaborone Gabès Gadag Gadag-Betageri Gaggenau Gagnoa
    Gainesville Gajuwaka Gama Gambia Gandajika Ganderkesee Gandhinagar Gangavati Gangneung Gangtok
    Ganja Ganzhou Gaojing Gaomi Gaoping Gaozhou Gapan Garanhuns Garbsen Garching Gardez Garissa
    Garland Garmisch-Partenkirchen Garut Gashua Gatineau Gauting Gaya Gaza Gaziantep Gazipur Gboko
    Gbongan Gdynia Gebze Geelong Geesthacht Geidorf Geilenkirchen Geita Gejiu Gelnhausen
    Gelsenkirchen Gemena Geneva Genoa Gent Geoje Georgetown Georgia Georgsmarienhütte Gera Gereida
    Geretsried Gerlingen Germany Germering Germersheim Germiston Gersthofen Gescher Geseke Getafe
    Gevelsberg Geylang Ghana Ghardaïa Ghazni Ghotki Ghulja Gibraltar Gifhorn Gifu Gijang Gijón
    Gilbert Gilching Gilgit Gillingham Gimcheon Gingoog Ginowan Ginsheim-Gustavsburg Giresun Girga
    Giridih Girona Girón Gisenyi Giza Gladbeck Glasgow Glauchau Glazov Glendale Glinde Gliwice
    Gloucester Godhra Godomè Gohlis Goiânia Gojra Gokalpur Goma Gombe Gondal Gonder Gongheyong
    Gongzhuling Gonsenheim Gorakhpur Gorbitz Gorontalo Goslar Gossau Gotha Gothenburg Gqeberha
    Grajaú Granada Gravataí Gravesend Graz Greece Greeley Greenland Greensboro Grefrath Greiz
    Grenada Grenchen Grenoble Gresham Greven Grevenbroich Gries Griesheim Grimma Grogol Gronau
    Groningen Gropiusstadt Grozny Gràcia Gröbenzell Guacara Guadalajara Guadalupe Guadeloupe
    Guaianases Guam Guanabacoa Guanare Guangshui Guangyuan Guangzhou Guankou Guantánamo Guarapari
    Guarapuava Guaratinguetá Guarenas Guarujá Guarulhos Guará Guatemala Guatire Guayaquil Guben
    Gucun Guelma Guelmim Guelph Guernsey Guigang Guiguinto Guilin Guinea Guinea-Bissau Guixi Guiyang
    Gujangbagh Gujranwala Gujrat Guli Gulin Gulu Gumi Gummersbach Guna Gunan Gunpo Gunsan Guntakal
    Guntur Gunungsitoli Gunzenhausen Gurugram Gurúè Gusau Guwahati Guyana Guyong Guyuan Guédiawaye
    Gwalior Gwangju Gwangmyeong Gwangyang Gweru Gyeongju Gyumri Göppingen Görlitz Göttingen Günzburg
    Güstrow Gütersloh Haarlem Habikino Hachinohe Hadano Hadejia Haeju Hafizabad Hagen Hagonoy
    Haicheng Haifa Haiger Haikou Hailar Hailin Hailun Haimen Haiphong Haiti Hakenfelde Hakodate
    Halberstadt Haldia Haldwani Halifax Halle-Neustadt Halstenbek Halver Hamamatsu Hamburg
    Hamburg-Mitte Hamburg-Nord Hameln Hami Hamilton Hamm Hammamet Hammanskraal Hamminkeln Hampton
    Hanam Handa Handan Handeni Hanfeng Hangu Hangzhou Hanjia Hannover Hanoi Hanzhong Harar Harare
    Harbin Harburg Haren Hargeysa Haridwar Harlem Harpen Harrow Harsewinkel Hartford Harunabad
    Harvestehude Haselhorst Hasilpur Hassan Hatsukaichi Hattersheim Hattingen Hausbruch Havana
    Hawaii Hayward Hebi Hebron Hechi Hechingen Hechuan Hedong Hefei Hegang Heidelberg Heidenau Heihe
    Heilbronn Heiligenhaus Heiligensee Heinsberg Hejiang Hellersdorf Helmstedt Helsingborg Helsinki
    Hemer Hemmingen Henderson Hengshan Hengshui Hengyang Hennigsdorf Hepo Hepu Herborn Herdecke
    Herford Herisau Hermosillo Hermsdorf Hernals Herne Herrenberg Herten Herzogenaurach Herzogenrath
    Heshan Hetauda Hettstedt Heusenstamm Heusweiler Heyuan Heze Hezhou Hialeah Hiddenhausen Hietzing
    Higashihiroshima Higashikurume Higashimurayama Higashiosaka Hikone Hilchenbach Hildesheim Hille
    Hillsboro Himamaylan Himeji Hindaun Hindupur Hino Hinthada Hirakata Hiratsuka Hirnytskyi
    Hirosaki Hiroshima Hisar Hitachi Hitachi-Naka Hlaingthaya Hobart Hockenheim Hofgeismar
    Hoheluft-Ost Hohenems Hohenstein-Ernstthal Hohhot Hoima Holguín Hollywood Holzkirchen Holzminden
    Holzwickede Homburg Homs Honduras Honggang Hongkou Honmachi Honolulu Hoofddorp Horgen Horlivka
    Horta-Guinardó Hortaleza Hortolândia Hosapete Houston Howrah Hoyerswerda Hrodna Hsinchu Huacheng
    Huadian Huaibei Huaihua Huainan Huambo Huancayo Huanggang Huangpu Huangshan Huangshi Huangzhou
    Huaraz Huayin Hubballi Huckarde Huddersfield Huelva Hugli Huicheng Huinong Huixing Huixquilucan
    Huizhou Hulan Huludao Hulunbuir Humboldtkolonie Humen Hummelsbüttel Hungary Huntsville Huocheng
    Hurghada Husum Huzhou Huánuco Hwado Hyderabad Hyesan Hörde Hörstel Hötting Hövelhof Höxter
    Hückelhoven Hückeswagen Hünfeld Hürth Ibadan Ibagué Ibanda Ibaraki Ibarra Ibbenbueren Ibirité
    Iceland Ichalkaranji Ichihara Ichikawa Ichinomiya Ichinoseki Idaho Idar-Oberstein Idlib Idstein
    Ifakara Igarassu Igboho Iguatemi Iida Iizuka Ijebu-Igbo Ijero-Ekiti Ijok Ikare Ikeda Ikeja
    Ikere-Ekiti Ikire Ikirun Ikoma Iksan Ilagan Ile-Ife Ilebo Ilesa Ilford Ilhéus Iligan Illertissen
    Illingen Illinois Ilmenau Ilobu Iloilo Ilorin Imabari Imperatriz Imphal Imus Inazawa Incheon
    Indaiatuba Independence India Indiana Indianapolis Indonesia Indore Indramayu Inezgane Inglewood
    Ingolstadt Ingombota Inisa Inkisi Innsbruck Insein Inzai Iowa Ipatinga Ipiranga Ipoh Ipojuca
    Ipswich Iquique Iquitos Iran Iranshahr Irapuato Iraq Irbid Ireland Irewe Iringa Irkutsk Iruma
    Irvine Irving Irákleion Isahaya Ise-Ekiti Isehara Iserlohn Isesaki Iseyin Isfahan Isfara
    Ishinomaki Isiro Islamabad Islington Ismailia Isparta Israel Istanbul Istaravshan Isulan
    Itabaiana Itabashi Itabira Itaboraí Itabuna Itacoatiara Itaguaí Itagüí Itaituba Itajaí Italy
    Itami Itanhaém Itaperuna Itapetininga Itapevi Itapipoca Itaquaquecetuba Itaquera Itatiba
    Ituiutaba Ituzaingó Itzehoe Ivano-Frankivsk Ivanovo Ivanovskoye Iwaki Iwakuni Iwata Iwatsuki
    Ixtapaluca Izhevsk Izmaylovo Iztacalco Iztapalapa Izumi Izumisano Izumo Jabalpur Jabaquara
    Jacareí Jackson Jacksonville Jacmel Jacobabad Jaffa Jaffna Jagdalpur Jahrom Jaigaon Jaipur
    Jakarta Jakomini Jalandhar Jalapa Jalgaon Jalingo Jamaica Jammu Jamnagar Jampur Jamshedpur
    Janakpur Jandira Japan Japeri Jaraguá Jaranwala Jataí Jauharabad Jaunpur Jayapura Jaén Jeddah
    Jember Jena Jeongeup Jeonju Jepara Jequié Jerusalem Jessore Jetpur Jhelum Jiading Jiagedaqi
    Jiamusi Jianchang Jiangmen Jiangyin Jiangyou Jianshui Jiaohe Jiaojiang Jiaozhou Jiaozuo Jiashan
    Jiawang Jiaxing Jiayuguan Jiazi Jieshi Jieshou Jieyang Jijel Jijiang Jijiga Jilin Jimeta Jimma
    Jinan Jinchang Jincheng Jinfeng Jingdezhen Jinghong Jingling Jingmen Jingzhi Jingzhou Jinhua
    Jining Jinjiang Jinshan Jinshanlu Jinzhong Jinzhou Jishou Jishu Jiujiang Jiupu Jiuquan Jiutai
    Jiutepec Jixi Jiyuan Jizan Jizhou Jizzax Jodhpur Johannesburg Johannisthal Joinville Joliet Jolo
    Jombang Jomvu Jordan Jorhat Josefstadt Juazeiro Juba Juja Juliaca Jundiaí Jutiapa Jyväskylä
    Jönköping Jüchen Jülich Kaarst Kabankalan Kabinda Kabul Kabwe Kadapa Kadoma Kaduna Kafrul Kafue
    Kagoshima Kahama Kaifeng Kaili Kairouan Kaiserslautern Kaithal Kaiyuan Kajang Kajansi Kakamega
    Kakamigahara Kakegawa Kalaburagi Kalemie Kalemyo Kaliningrad Kalininskiy Kalisz Kallakurichi
    Kallang Kallithéa Kalmiuskyi Kalmunai Kalol Kaltenkirchen Kaluga Kalulushi Kalynivskyi Kamagaya
    Kamakura Kamalia Kamenz Kamina Kamirenjaku Kamloops Kamoke Kamp-Lintfort Kampala Kamsar
    Kamyanske Kamyshin Kananga Kanayannur Kanazawa Kanchipuram Kandy Kangding Kanggye Kanhangad Kani
    Kankan Kanoya Kanpur Kansas Kansk Kaohsiung Kaolack Kapar Kara Karabük Karachi Karagandy Karaj
    Karaman Karamay Karatsu Karawang Karbala Karben Kariega Kariya Karlsfeld Karlshorst Karlsruhe
    Karlstadt Karnaphuli Karow Karur Karuri Kasama Kasangati Kasese Kashan Kashgar Kashipur Kashiwa
    Kashiwara Kassala Kassel Kastamonu Kasuga Kasugai Kasukabe Kasulu Kasur Katabi Kathmandu Kati
    Katihar Katowice Katsina Katsushika Katsuta Katumba Kaufbeuren Kaulsdorf Kaunas Kawachi-Nagano
    Kawagoe Kawaguchi Kawanishi Kawasaki Kaya Kayes Kayseri Kazakhstan Kazan Kazo Kecskemét Kediri
    Kedungwuni Keelung Kelar Kelheim Kelkheim Kelowna Kembangan Kemerovo Kempen Kendari Kenema
    Kenitra Kennedy Kent Kentron Kentucky Kenya Kerch Kerman Kermanshah Kerpen Kevelaer Khabarovsk
    Khammam Khandwa Khanna Khanpur Khanty-Mansiysk Kharagpur Khardah Khargone Kharian Kharkiv
    Khartoum Khasavyurt Khemisset Khenchela Khenifra Khimki Khirdalan Khmelnytskyi Khobar
    Khoroshëvo-Mnevniki Khorramabad Khorramshahr Khouribga Khujand Khulna Khurja Khuzdar Khwisero
    Kiambu Kibaha Kielce Kierspe Kigali Kigoma Kikolo Kikuyu Kikwit Kilamba Kilis Killeen Kimberley
    Kimhae Kindia Kindrativskyi Kindu Kingston Kinshasa Kipushi Kira Kirchhain Kirchlengern Kiribati
    Kirishima Kirkuk Kirov Kisangani Kisaran Kisarazu Kiselëvsk Kishanganj Kishangarh Kishiwada Kisi
    Kisii Kislovodsk Kismayo Kissidougou Kisumu Kitakyushu Kitale Kitami Kitchener Kitengela Kitwe
    Kitzingen Kladow Klaten Kleinmachnow Klerksdorp Kleve Klingenstein Klosterneuburg Kloten
    Klotzsche Kluang Klungkung Knoxville Kobe Koblenz Kochi Kodaira Koforidua Kofu Koga Koganei
    Kohat Koidu Kokshetau Kokubunji Kolbermoor Kolda Kolkata Kollam Kolomna Kolpino Kolwezi Komaki
    Komatsu Kombolcha Konak Konibodom Konstanz Konya Korba Korbach Koreatown Korhogo Korla Korntal
    Kornwestheim Korolev Korolyov Koronadal Korschenbroich Koshigaya Kosovo Kostanay Kosti Kostroma
    Koszalin Kota Kotamobagu Kotri Koudougou Koumassi Kousséri Koutiala Kovpakivskyi Kovrov Kowloon
    Kozhikode Kragujevac Kraków Kramatorsk Krasnodar Krasnogvargeisky Krasnoyarsk Krefeld Kremenchuk
    Kresek Kreuzberg Kreuzlingen Kreuztal Kriens Krishnanagar Kristiansand Kronach Kronberg
    Kroonstad Kropyvnytskyi Krugersdorp Kuantan Kuching Kufa Kukatpally Kulim Kulmbach Kulti
    Kumagaya Kumamoto Kumarapalayam Kumasi Kumba Kumbakonam Kumbo Kunduz Kuningan Kunming Kunri
    Kunshan Kuntsevo Kuopio Kupang Kurashiki Kurgan Kurichchi Kurnool Kursk Kurume Kusatsu
    Kushinagar Kushiro Kushtia Kutaisi Kuwait Kuwana Kwekwe Kyaukpyu Kyauktan Kyengera Kyimyindine
    Kyiv Kyivskyi Kyoto Kyrgyzstan Kyzyl Kyzylorda Köln Königsbrunn Königswinter Köniz Köpenick
    Köthen Künzell Künzelsau Kütahya Küçükçekmece Laatzen Laayoune Labé Ladysmith Lafayette Lafia
    Lafiagi Lagarto Lages Laghouat Lagos Lahnstein Lahore Lahti Laibin Laiwu Laixi Laiyang Laizhou
    Lajeado Lakeland Lakewood Lalitpur Lambaré Lampa Lampang Lampertheim Lancaster Lancy Lander
    Landshut Langendreer Langenfeld Langenhagen Langenhorn Langfang Langley Langsa Lankwitz Lansing
    Lanzhou Lanús Laoag Laohekou Laos Larache Laredo Larkana Lashio Lasnamäe Latacunga Latakia
    Latina Latkrabang Latur Latvia Lauchhammer Lauda-Königshofen Laupheim Lausanne Laval Lavras
    Lawang Layyah Lebach Lebanon Lecheng Leeds Leeuwarden Leganés Legaspi Legnica Leicester
    Leichlingen Leinfelden-Echterdingen Leipzig Leiria Leiyang Lekki Lembang Lemgo Lengerich
    Lengshuijiang Leninsk-Kuznetsky Lennestadt Leonberg Leopoldshöhe Leshan Lesotho Lethbridge
    Leuben Leutkirch Leuven Leverkusen Lewisville Lexington Lexington-Fayette León Lhasa Lhoka
    Lhokseumawe Lianghu Liangping Lianhe Lianjiang Lianshan Lianyungang Liaocheng Liaoyang Liberec
    Liberia Libertad Libreville Libya Licheng Lichinga Lichtenberg Lichtenfels Lichtenrade
    Lichterfelde Lichuan Lida Liechtenstein Lijiang Likasi Lilienthal Lille Lilongwe Lima Limassol
    Limbach-Oberfrohna Limbe Limeira Limerick Limoges Limuru Lincang Lincoln Lindau Linden-Nord
    Lindlar Linfen Lingen Linhares Linköping Linqu Linshui Linxi Linyi Linz Lipetsk Lippstadt Lisala
    Lisbon Lishui Lithuania Littau Liupanshui Liuzhi Liuzhou Liverpool Livingstone Livoberezhnyi
    Livorno Lizhi Liège Ljubljana Lleida Lobito Locarno Lodhran Logroño Lohmar Loja Lomé London
    Londrina Longfeng Longgang Longjiang Longjing Longshan Longshui Longueuil Longyan Loni Loschwitz
    Losheim Loudi Louga Louisiana Louisville Lowell Loxstedt Luancheng Luanda Luanshya Lubango
    Lubbock Lublin Lubnjow Lubuklinggau Lubumbashi Lucapa Lucena Luckenwalde Lucknow Ludhiana
    Ludwigsburg Ludwigsfelde Luena Lugano Lugazi Luhansk Lumajang Luodian Luohe Luojiang Luoyang
    Lurup Lusail Lusaka Lusan Lushui Lustenau Luton Lutsk Luxembourg Luxor Luzern Luzhou Luziânia
    Lviv Lyon Lyubertsy Lyublino Lárisa Léogâne Lévis Löbau Löbtau Lörrach Lübbecke Lübeck
    Lüdenscheid Lüdinghausen Lüliang Lüneburg Lünen Lütgendortmund Maastricht Maba Mabopane Macao
    Macapá Macau Macaé Maceió Machala Macheng Machida Machiques Madagascar Madanapalle Madhavaram
    Madhyamgram Madinah Madison Madiun Madrid Madurai Maebashi Magangué Magdeburg Magelang
    Magnitogorsk Magé Mahajanga Maharagama Maheshtala Mahilyow Mahlsdorf Maianga Maicao Maidstone
    Maiduguri Maijdi Mailsi Maintal Mainz Maipú Mairiporã Majie Makassar Makhachkala Makiyivka
    Makkah Makumbako Makurdi Malabo Malabon Malacca Malakal Malambo Malang Malanje Malappuram
    Malatia-Sebastia Malatya Malawi Malaysia Malda Maldives Maldonado Malegaon Mali Malindi Malingao
    Malita Malkajgiri Malmö Malolos Malta Maltepe Manacapuru Manado Managua Manama Manas Manaus
    Manchester Mandalay Mandaluyong Mandaqui Mandera Mandimba Mandoli Mandsaur Mandurah Mandya
    Mangalagiri Mangaluru Mango Manhattan Manila Manisa Manizales Manjhand Mannheim Manokwari Mansa
    Mansfield Mansilingan Manta Mantampay Mantilla Manzanillo Manzini Manéah Maoming Maputo Marabá
    Maracaibo Maracanaú Maracay Maradi Maramag Maran Marand Maranguape Marbella Marcory Mardan
    Mardin Mariahilf Marianao Mariara Maricá Marienberg Mariendorf Marienfelde Marienthal Maringá
    Marituba Mariupol Mariveles Marka Markham Markkleeberg Marktoberdorf Marktredwitz Maroua
    Marrakesh Marsberg Marseille Martapura Martigny-Ville Martinique Marugame Marvdasht Mary
    Maryland Maryvale Marzahn Marília Masai Masaka Masan Masaya Mascara Maseru Mashhad Masina
    Masindi Massachusetts Matadi Matagalpa Matanzas Mataram Mataró Mathura Mati Matola Matsubara
    Matsudo Matsue Matsumoto Matsusaka Matsuyama Matuga Maturín Mauritania Mauritius Mauá Mawlamyine
    Maxixe Mayen Maykop Mayotte Mazabuka Mazatlán Mazyr Mbaké Mbale Mbandaka Mbanza-Ngungu Mbarara
    Mbeya Mbombela Mbour Mbuji-Mayi Mdantsane Meads Mechernich Meckenheim Medan Medellín Meerane
    Meerbusch Meerut Meguro Meiderich Meidling Meiktila Meinerzhagen Meiningen Meishan Meissen
    Meizhou Mejicanos Meknes Melbourne Melitopol Melle Memmingen Memphis Menden Mendip Mendoza
    Mengmao Mengzi Menongue Mentougou Meppen Merauke Merkezefendi Merlo Merseburg Mersin Merzig Mesa
    Meschede Mesquite Messina Mestre Metairie Mettmann Metz Metzingen Mexicali Mexico Meycauayan
    Meyrin Mezhdurechensk Miami Mianwali Mianyang Miass Michelstadt Michigan Micronesia Middelburg
    Middlesbrough Midland Midsayap Milagro Milton Milwaukee Minamirinkan Minatitlán Minato Minden
    Mingachevir Mingaladon Mingora Mingshui Minhang Minna Minneapolis Minnesota Minoh Minsk Minya
    Miraflores Miramar Miri Miryalaguda Misburg Misburg-Nord Mishima Miskolc Misratah Mississauga
    Mississippi Missouri Mito Mitrovicë Mittweida Mityana Mixco Miyazaki Mlolongo Moabit Moanda
    Mocuba Modakeke Modena Modesto Moers Moga Mogadishu Mohali Mohammadpur Mohammedia Mojokerto
    Mokopane Mokotów Mokpo Moldova Mombasa Monaco Moncloa-Aravaca Monclova Mongolia Mongu Monrovia
    Montana Montenegro Monterrey Montería Montevideo Montgomery Monthey Montpellier Montreuil
    Montreux Montréal Montserrat Monywa Monza Moosburg Mopti Moratalaz Moratuwa Morelia Morena
    Moreno Morges Moriguchi Morioka Mormugao Morocco Morogoro Morvi Mosbach Moscow Moshi Mosquera
    Mossamedes Mossoró Mostaganem Mostar Mosul Motijheel Moundou Mozambique Mpanda Mpumalanga
    Mthatha Mtwara Muar Mubende Mubi Mudanjiang Mufulira Mukalla Mukono Muktsar Mulenvos Mulhouse
    Multan Mulugu Mumbai Munger Munich Munster Muntinlupa Murcia Murfreesboro Muriaé Muricay Muridke
    Murmansk Murom Murrieta Musaffah Musanze Musashino Muscat Mushin Musoma Mutare Muttenz
    Muzaffargarh Muzaffarnagar Muzaffarpur Mwala Mwanza Mwene Mwene-Ditu Myanmar Myeik Myingyan
    Mykolayiv Mymensingh Mysuru Mytishchi Mzuzu Málaga Médéa Mérida Móstoles Mödling Mölln
    Mönchengladbach Mörfelden-Walldorf Mössingen Mühlacker Mühldorf Mühlhausen Mülheim Müllheim
    Münster Nablus Nacala Nada Nador Naga Nagahama Nagano Nagaoka Nagaon Nagapattinam Nagareyama
    Nagasaki Nagda Nagold Nagoya Nagpur Naha Nairobi Naivasha Najaf Najafgarh Nakano Nakhodka Nakuru
    Nalchik Nalgonda Namangan Namibia Nampula Namur Nanbin Nanchang Nanchong Nanchuan Nancun Nancy
    Nanded Nandurbar Nanjin Nanjing Nanning Nanpiao Nanping Nanqiao Nansana Nantes Nantong Nantou
    Nanyang Naperville Naples Narasaraopet Narashino Narayanganj Narela Narita Narmadapuram Narowal
    Narsingdi Nashik Nashville Nasimshahr Nasiriyah Nassau Nasushiobara Natal Natore Nauen Naumburg
    Nauru Navegantes Navoiy Navojoa Navotas Navsari Nawabshah Nazilli Nazran Ndola Nebraska
    Neckarsulm Neftekamsk Nefteyugansk Negara Negombo Nehe Neheim Neihu Neijiang Neili Neiva Nellore
    Nepal Nepalgunj Nepean Netanya Netphen Nettetal Neu-Anspach Neu-Hohenschönhausen Neu-Isenburg
    Neu-Ulm Neubrandenburg Neubrück Neuchâtel Neuehrenfeld Neuenhagen Neugraben-Fischbek
    Neukirchen-Vluyn Neukölln Neumünster Neunkirchen Neuquén Neuruppin Neuss Neustrelitz Neuwied
    Nevada Nevinnomyssk Newark Newcastle Newport Newton Neyagawa Neyveli Ngaoundéré Ngong Nguru
    Niamey Nianbo Nicaragua Nice Nicosia Nidda Nidderau Nieder-Ingelheim Niederkassel Niederkrüchten
    Niederrad Niederschönhausen Nienburg Niendorf Nigel Niger Nigeria Niigata Niihama Niiza Nijmegen
    Nikopol Nilópolis Nilüfer Nimach Ningbo Ningde Nippes Nishinomiya Nishio Niterói Niue
    Nizhnekamsk Nizhnevartovsk Njeru Nkayi Nkongsamba Nkpor Nnewi Nobeoka Noda Nogales Noginsk Noida
    Nordenham Norderstedt Nordhausen Nordhorn Norfolk Norilsk Norman Northampton Northeim Norwalk
    Norway Norwich Norzagaray Nottingham Nottuln Nouadhibou Nouakchott Novara Novo-Peredelkino
    Novocheboksarsk Novocherkassk Novokuybyshevsk Novokuznetsk Novomoskovsk Novorossiysk Novosibirsk
    Novotroitsk Novozavodskyi Nowrangapur Noyabrsk Nsukka Ntuzuma Nukus Numazu Nuremberg Nyagatare
    Nyala Nyingchi Nyzhnodniprovsk Nyíregyháza Nzega Nzérékoré Nîmes Nördlingen Nümbrecht Nürtingen
    Oakland Oakville Oaxaca Obalende Ober-Ramstadt Oberasbach Oberkirch Oberschöneweide Obertshausen
    Oberursel Obihiro Obninsk Obolon Obuase Ocaña Oceanside Ochakovo-Matveyevskoye Ochtrup Odawara
    Odense Odenthal Odesa Odessa Odintsovo Oelde Oer-Erkenschwick Oerlinghausen Offa Offenbach
    Offenburg Ogbomoso Ohio Ohligs Okara Okayama Okazaki Okene Okigwe Okinawa Oklahoma Okrika
    Oktyabrsky Olanchito Olathe Olching Oldenburg Oldham Oleksandrivskyi Oleksiyivka Olinda Olmaliq
    Olongapo Olsberg Olsztyn Olten Omaha Omdurman Omsk Ondjiva Ondo Ongole Onitsha Onomichi Ontario
    Ooty Opfikon Opladen Opole Oradea Orai Oran Oranienburg Ordos Ordu Oregon Orekhovo-Borisovo
    Orekhovo-Zuyevo Orenburg Orihuela Orizaba Orkney Orlando Orléans Ormoc Orsha Orsk Oruro Orël
    Osaka Osan Osasco Oschatz Oschersleben Osdorf Oshawa Oshodi Oslo Osmaniye Osnabrück Osogbo
    Osorno Osterholz-Scharmbeck Ostfildern Ostrava Otaru Othmarschen Ottakring Ottawa Ottensen
    Ouagadougou Ouahigouya Ouargla Oujda Oulu Ourense Ourinhos Overath Oviedo Owerri Oxford Oxnard
    Oyama Oyten Paarl Padalarang Padang Padangsidempuan Paderborn Padua Pagadian Pailou Pakistan
    Pakokku Pakpattan Palakkad Palangkaraya Palau Palembang Palermo Palhoça Pallabi Palma Palmas
    Palmdale Palmira Palopo Paltan Palu Palwal Pamanukan Pamplona Pamulang Panabo Panalanoy Panama
    Panchkula Pandi Pangkalanbuun Pangkalpinang Panguíla Panipat Paniqui Panjin Pankow Panshan
    Panvel Panzhihua Papenburg Paradise Paragominas Paraguay Parakou Paramaribo Paranaguá Paraná
    Parauapebas Parbhani Parchim Pare Parelheiros Parepare Parintins Paris Parla Parma Parnamirim
    Parnaíba Parung Pasadena Pasarkemis Pasay Paseh Pasing Pasrur Passau Passos Pasto Pasuruan
    Paterson Pathein Patna Pattaya Pattoki Paulista Paulínia Pavlodar Pavlohrad Payakumbuh Pearland
    Pechersk Pedreira Peicheng Pekalongan Pekanbaru Pelabuhanratu Pelentong Pelotas Pemalang
    Pematangsiantar Pemba Pengpu Pengze Pennsylvania Penza Penzberg Penzing Peoria Perbaungan
    Perchtoldsdorf Percut Perdizes Pereira Peristéri Perling Perm Perpignan Perth Peru Perugia
    Pervouralsk Pescara Peshawar Petapa Petare Peterborough Petersberg Petershagen Petershausen-West
    Petrogradka Petrolina Petropavl Petropavlovsk-Kamchatsky Petrozavodsk Petrópolis Peñalolén
    Pforzheim Pfullingen Pfungstadt Phalaborwa Philadelphia Philippines Phoenix Phusro Piacenza
    Piedecuesta Pietermaritzburg Pikine Pimpri Pimpri-Chinchwad Pindamonhangaba Pindiga Pinetown
    Pingdingshan Pingdu Pingliang Pingshan Pingxiang Pinhais Pinneberg Pinsk Piracicaba Piraeus
    Piranshahr Piraquara Pirituba Pirmasens Pirna Pisa Pitalito Pitcairn Pithampur Pittsburgh Piura
    Pizhou Planaltina Plano Plaridel Plauen Pleiku Plettenberg Plovdiv Plumbon Plymouth Poblacion
    Podgorica Podolsk Pohang Pointe-Noire Pokhara Poland Polokwane Poltava Pomona Ponce Pontianak
    Popayán Poppenbüttel Porbandar Porlamar Port-Gentil Portland Portmore Porto Porto-Novo
    Portoviejo Portsmouth Portugal Posadas Potchefstroom Potosí Potsdam Pozniaky Prabumulih Pradl
    Prague Praia Prato Prayagraj Preetz Prenzlau Presnenskiy Preston Pretoria Pristina Prizren
    Probolinggo Providence Provo Pskov Pucallpa Puchheim Puchong Pudong Puducherry Pudukkottai
    Puebla Pueblo Pulandian Pulheim Pulilan Pully Pune Punggol Puning Puno Puqi Puri Purnia Puruliya
    Purwakarta Purwodadi Purwokerto Pushkino Putatan Puthia Putian Putuo Puxi Puyang Pyatigorsk Pyay
    Pyeongtaek Pyongyang Pátra Pécs Pétionville Püttlingen Qalyub Qarchak Qarshi Qatar Qazvin
    Qianjiang Qiaotou Qibao Qina Qingdao Qingnian Qingpu Qingyang Qingyuan Qingzhou Qinhuangdao
    Qinzhou Qionghai Qiqihar Qitaihe Qods Quanzhou Quedlinburg Queens Queenstown Queimados Quelimane
    Queluz Querenburg Quetta Quetzaltenango Quevedo Quezon Quibdó Quickborn Quilicura Quillacollo
    Quilmes Quilpué Quito Qujing Qurayyat Quthbullapur Quzhou Québec Rabak Rabat Radeberg Radebeul
    Radevormwald Radolfzell Radom Raebareli Rahden Rahlstedt Raigarh Raipur Rajamahendravaram
    Rajapalayam Rajshahi Raleigh Ramadi Ramagundam Ramenki Ramiros Rancagua Ranchi Randburg
    Randfontein Ranebennur Rangamati Rangel Rangkasbitung Rangpur Rantauprapat Rapperswil Rasht
    Rastatt Rastede Ratekau Rathenow Ravensburg Rawalpindi Rawang Rawson Rayong Reading Recife
    Recklinghausen Regensburg Regina Reims Reinach Reinbek Reinheim Reinickendorf Relizane Remagen
    Remscheid Renca Rendsburg Renens Rengasdengklok Rennes Renningen Reno Renton Resende Resistencia
    Retiro Reunion Reus Reutlingen Rewa Reykjavík Reynosa Rheda-Wiedenbrück Rhede Rheinbach
    Rheinberg Rheinfelden Rheinhausen Rheinstetten Rialto Ribnitz-Damgarten Richardson Richmond
    Riedstadt Riegelsberg Riehen Riesa Rietberg Riga Rijeka Rimini Rinteln Riobamba Riohacha
    Rionegro Rishra Riverside Rivne Riyadh Rize Rizhao Roanoke Robertsonpet Rochester Rockford
    Rodenkirchen Rodgau Rodriguez Rohini Rohtak Romania Rondonópolis Ronnenberg Roodepoort Roorkee
    Rosario Rosarito Rosenheim Rosetta Roseville Rostock Rotenburg Rotherbaum Rotherham Rottenburg
    Rotterdam Rottweil Rouen Rouiba Rourkela Rubtsovsk Rudnyy Rudolstadt Rudow Rudrapur Rufisque
    Rugao Ruiru Rummelsburg Ruqi Ruse Russeifa Russia Rustaq Rustavi Rustenburg Rutchenkivskyi
    Rwanda Ryazanskiy Rybinsk Rybnik Rzeszów Rösrath Saaba Saalfeld Saanich Saarbrücken Saarlouis
    Sabadell Sabanalarga Sabará Sabha Sabzevar Sacaba Sachsenheim Sacomã Sacramento Saddiqabad Safi
    Sagamihara Saguenay Saharsa Sahiwal Saidpur Saint-Denis Saint-Louis Saint-Marc Saint-Paul
    Saint-Étienne Sainte-Foy Saitama Sakado Sakai Sakakah Sakata Saki Sakura Salamanca Salaqi
    Salatiga Salavat Salem Salerno Salford Salihli Salinas Salta Saltillo Saltivka Salvador Salzburg
    Salzgitter Salzkotten Salé Samambaia Samara Samarinda Samarkand Sambalpur Sambhal Sambizanga
    Sambrial Samoa Sampit Samsun San-Pédro Sanaa Sanandaj Sancaktepe Sandakan Sangerhausen Sangju
    Sanhe Sanmenxia Sanming Sano Sanshui Santana Santander Santarém Santiago Santol Santos
    Sants-Montjuïc Sanxia Sanya Sapele Sapopemba Sapporo Saqqez Sarajevo Sarandi Saransk Saratov
    Sargodha Sarh Sari Sarstedt Sasebo Sasel Saskatoon Sasolburg Satara Satna Saugor Saurimo
    Savannah Savannakhet Savar Sawangan Sayama Saïda Schaerbeek Schaffhausen Scharnhorst
    Schifferstadt Schiffweiler Schkeuditz Schleswig Schlüchtern Schmalkalden Schmallenberg
    Schmargendorf Schneeberg Schnelsen Schneverdingen Schopfheim Schorndorf Schortens Schramberg
    Schrobenhausen Schwabach Schwalbach Schwalmstadt Schwalmtal Schwanewede Schwarzenberg
    Schweinfurt Schwelm Schwerin Schwetzingen Schwyz Schönebeck Schöneberg Scottsdale Seattle Sebeta
    Secunderabad Seeb Seeheim-Jugenheim Seelze Seevetal Sehnde Sehore Sejong Sejoumi Sekondi
    Sekondi-Takoradi Seligenstadt Semarang Semey Semnan Sendai Senegal Senftenberg Sengerema Sennar
    Sentul Seogwipo Seoni Seoul Sepang Sepatan Serang Serangoon Serbia Serekunda Seremban Sergeli
    Serilingampalle Serpukhov Serra Sertãozinho Setagaya Setapak Seto Settat Setúbal Sevastopol
    Severnyy Severodvinsk Seversk Sevilla Seychelles Sfax Shabqadar Shache Shagamu Shahdadpur
    Shahecheng Shahkot Shahrisabz Shahrud Shahuwadi Shajing Shakargarh Shakhty Shanghai Shangluo
    Shangqiu Shangrao Shangri-La Shangyu Shangzhi Shanhaiguan Shantou Shanwei Shaoguan Shaoshan
    Shaowu Shaoxing Shaoyang Shaping Sharjah Shashamane Shchukino Shchyolkovo Sheffield Shekhupura
    Shengavit Shenglilu Shenyang Shenzhen Sherbrooke Sherpur Shevchenkivskyi Shevchenko Shibganj
    Shibuya Shihezi Shijiazhuang Shijie Shikarpur Shillong Shilong Shimla Shimonoseki Shimotoda
    Shinagawa Shinjuku Shinyanga Shiqi Shiqiao Shiraz Shivamogga Shivpuri Shiyan Shizuishan Shizuoka
    Sholapur Shomolu Shouguang Shreveport Shuangcheng Shuanglonghu Shuangyashan Shuifu Shuizhai
    Shujaabad Shulin Shunyi Shuozhou Shyamnagar Shymkent Sialkot Sibiu Sibu Sidoarjo Sidon Siegburg
    Sierre Sigmaringen Siguatepeque Siguiri Siheungdong Siirt Sikasso Silang Silchar Silifke
    Siliguri Silopi Simele Simferopol Simmering Sincelejo Sindelfingen Sinfra Singa Singapore
    Singaraja Singida Singkawang Singosari Singrauli Sinjhoro Sinop Sinsheim Sinzig Siping Siracusa
    Sirajganj Sirjan Sirsa Sirte Sitiawan Sittwe Situbondo Sivakasi Sivas Siverek Skardu Skikda
    Skopje Skudai Slough Slovakia Slovenia Slovyansk Smolensk Smolyanskyi Soacha Sobral Sochi Sodo
    Soest Sofia Sogamoso Sohag Sohar Sokodé Sokoto Soledad Solihull Solikamsk Solingen Sollentuna
    Solntsevo Solothurn Soltau Solwezi Somalia Somaroboro Sondershausen Songcheng Songea Songjiang
    Songnan Songyuan Sonneberg Sonthofen Soreang Sorocaba Sorong Sorriso Sorsogon Soshanguve
    Sosnowiec Soubré Sousse Southampton Soweto Soyapango Soyo Spain Spandau Spenge Speyer Split
    Spokane Springfield Springs Sprockhövel Srikakulam Srinagar Staaken Stadtallendorf Stadthagen
    Stadtlohn Stamford Standerton Starnberg Stavanger Stavropol Steffisburg Steglitz Steilshoop
    Steinfurt Steinhagen Stellingen Stendal Sterlitamak Steyr Stockach Stockelsdorf Stockerau
    Stockholm Stockport Stockton Stolberg Straelen Stralsund Strasbourg Straubing Strausberg
    Strogino Stuhr Stuttgart Stuttgart-Ost Subang Subotica Subulussalam Sucre Sudan Suez Suginami
    Suicheng Suihua Suining Suita Suizhou Sujiatun Sukabumi Sukawati Sukkur Sukrah Sulaymaniyah
    Suleja Sullana Sultanbeyli Sultangazi Sulzbach Sulzbach-Rosenberg Sumaré Sumayl Sumbawanga Sumbe
    Sumedang Sumgayit Sumida Sumy Suncheon Sunderland Sundern Sungailiat Sunggal Sunnyvale Suqian
    Surabaya Surakarta Surat Surendranagar Surgut Suriname Surprise Surrey Surulere Suruç Sutton
    Suwon Suzano Suzhou Suzuka Swansea Sweden Swindon Switzerland Sydney Sykhiv Syktyvkar Sylhet
    Syracuse Syria Syzran Szczecin Szeged Székesfehérvár Ségou Séguéla Sétif Södermalm Sömmerda
    Tabora Tabriz Tabuk Tacheng Tachikawa Tacloban Tacna Tacoma Tacurong Tadepalligudem Tadpatri
    Taganrog Taganskiy Taguatinga Taguig Tahoua Taibai Taicang Taichung Tainan Taipa Taipei Taiping
    Taishan Taito Taitung Taiwan Taiyuan Taiz Taizhou Tajikistan Tajimi Takamatsu Takaoka Takarazuka
    Takasaki Takatsuki Takeo Takoradi Talatona Talca Talcahuano Taldykorgan Talhar Talisay
    Tallahassee Tallinn Tama Tamale Tambacounda Tambaram Tambov Tampa Tampere Tampico Tandil Tanga
    Tangail Tangerang Tanggu Tanghe Tangier Tangshan Tanjungbalai Tanta Tantou Tanza Tanzania
    Tanzhou Taonan Taourirt Taoyuan Taozhou Tapachula Tarakan Taranto Taraz Targówek Tarija Tarime
    Tarnów Tarragona Tarsus Tashkent Tasikmalaya Tatuí Taubaté Taufkirchen Taunggyi Taungoo Taunsa
    Taunusstein Tauranga Tawau Tayabas Taytay Taza Tbilisi Tebingtinggi Tegal Tegel Tegucigalpa
    Tehran Tehuacán Telde Telford Telfs Telgte Teltow Teluknaga Tema Temara Temecula Temirtau Tempe
    Tempelhof Templin Temuco Tengyue Teni Tennessee Tepexpan Tepic Teresina Teresópolis Ternate
    Terni Ternopil Terrassa Terrebonne Tete Tettnang Texas Teziutlan Thailand Thanjavur Thaton
    Thembisa Thenali Thessaloníki Thika Thiruvananthapuram Thiès Thohoyandou Thoothukudi Thornton
    Thrissur Thuqbah Tianfu Tianjin Tianshui Tiaret Tieli Tieling Tigwav Tijuana Tilburg Timika
    Timon Tinaquillo Tinsukia Tirana Tiraspol Tirmiz Tiruchirappalli Tirunelveli Tirupati Tiruppur
    Tiruvannamalai Titiwangsa Tivaouane Tiébo Tlalnepantla Tlalpan Tlaquepaque Tlemcen Tláhuac
    Toamasina Tobolsk Tobruk Tochigi Tocoa Togo Tokat Tokelau Tokorozawa Tokoza Tokushima Tokuyama
    Tokyo Toledo Toli-Toli Toliara Toluca Tolyatti Tomakomai Tomsk Tonalá Tonga Tongchuan
    Tongchuanshi Tonghua Tongliao Tongling Tongren Tongshan Tongzhou Tonk Toowoomba Topeka Tordher
    Torgau Toride Toronto Torrance Torreón Toshima Totonicapán Tottenham Touba Toufen Touggourt
    Toulon Toulouse Tours Townsville Toyama Toyohashi Toyokawa Toyonaka Toyota Trabzon Traun
    Traunreut Traunstein Trento Treptow Tri-Cities Trier Trincomalee Trindade Tripoli Trois-Rivières
    Troisdorf Trondheim Troparëvo Trossingen Trujillo Tsaritsyno Tsentralno-Miskyi Tsentralnyi
    Tshikapa Tshilenge Tsuchiura Tsukuba Tsuruoka Tsuyama Tubarão Tucson Tuguegarao Tula Tulancingo
    Tulsa Tuluá Tumxuk Tunduma Tungi Tungipara Tunis Tunisia Tunja Turgutlu Turhal Turin Turkey
    Turkistan Turkmenistan Turku Turmero Turpan Tuscaloosa Tuttlingen Tuvalu Tuxtepec Tuxtla Tuzla
    Tver Tychy Tyler Tyre Tyumen Táriba Tébessa Tétouan Tönisvorst Tübingen Türkmenabat Uberaba
    Uberlândia Udaipur Udine Udupi Ueda Uelzen Uerdingen Uetersen Uganda Ugep Ujjain Ukhta Ukraine
    Ulan-Ude Ulanhot Ulanqab Ulhasnagar Ulsan Uluberiya Ulyanovsk Umarkot Umeå Umraniye Umuahia
    Umuarama Unaizah Ungaran Unterhaching Unterkrozingen Upata Uppsala Urasoe Urayasu Urdaneta
    Urganch Uromi Ursynów Uruapan Uruguaiana Uruguay Uruma Usera Uslar Ussuriysk Ust-Kamenogorsk
    Uster Utah Utrecht Utsunomiya Uvira Uzbekistan Uzhhorod Uíge Vacoas Vadodara Valdivia Valencia
    Valenzuela Valera Valinhos Valladolid Valledupar Vallejo Valparaíso Vancouver Vanderbijlpark
    Vantaa Vanuatu Vapi Varanasi Varel Varginha Varna Vaterstetten Vatican Vaughan Vechelde Vechta
    Vedado Vegesack Vejalpur Velbert Vellmar Vellore Venezuela Venlo Veracruz Verden Vereeniging
    Verhunskyi Vermont Vernier Verona Versmold Veshnyaki Vespasiano Vevey Viamão Viana Vicenza
    Victoria Victorville Vidisha Vienna Vientiane Viernheim Viersen Vietnam Vigo Vihari Vijayapura
    Vijayawada Vilkhivskyi Villach Villahermosa Villaverde Villavicencio Ville-Marie Villeurbanne
    Villingen-Schwenningen Vilnius Vilshofen Vinh Vinnytsya Virginia Visakhapatnam Visalia Viseu
    Vitebsk Vitória Vizianagaram Vladikavkaz Vladimir Vladivostok Vlorë Vlotho Voerde Volgodonsk
    Volgograd Volksdorf Vologda Volzhsky Voronezh Votorantim Vreden Vryheid
    Vyhurivshchyna-Troyeshchyna Vykhino-Zhulebino Västerås Völklingen Wachtberg Waco Wadern
    Wadgassen Wafangdian Waghäusel Waiblingen Wakayama Wakefield Waldbröl Waldkirch Waldkraiburg
    Waldshut-Tiengen Wallenhorst Walsall Walsrode Walthamstow Waltrop Wandlitz Wandsbek Wanning
    Wansheng Wanxian Wanzhou Warangal Warburg Wardenburg Warder Wardha Warendorf Warren Warri
    Warrington Warsaw Warstein Washington Wassenberg Watampone Waterbury Waterloo Watford
    Wattenscheid Watthana Wayaobu Wazirabad Weener Wegberg Weifang Weihai Weilerswist Weilheim
    Weimar Weinan Weingarten Weinheim Weinstadt-Endersbach Weiterstadt Weldiya Welkom Wellington
    Wenchang Wendelstein Wenzhou Werdau Werdohl Wermelskirchen Werne Wernigerode Wersten Wertheim
    Weru Wesel Wesseling Westerstede Westminster Westonaria Wettingen Wetzelsdorf Wetzikon Wetzlar
    Whalley Whitby Wichita Wickede Wiehl Wiesbaden Wiesloch Wigan Wildeshausen Wilhelmsburg
    Wilhelmshaven Wilhelmstadt Willemstad Willich Wilmersdorf Wilmington Wilnsdorf Wilten Windhoek
    Windsor Winejok Winnenden Winnipeg Winsen Winston-Salem Winterhude Winterthur Wipperfürth
    Wisconsin Wismar Witten Wittenau Wittenberg Wittlich Wittmund Wittstock Witzenhausen Woking Wola
    Wolfenbüttel Wolfratshausen Wolfsberg Wolfsburg Wollongong Wolverhampton Woodlands Worcester
    Worms Worthing Wuchuan Wuda Wugang Wuhai Wuhan Wuhu Wujiaqu Wunstorf Wuppertal Wurzen Wushan
    Wuwei Wuxi Wuxue Wuyishan Wuzhishan Wuzhong Wuzhou Wyoming Währing Wülfrath Würselen Würzburg
    Xai-Xai Xanten Xiamen Xiangcheng Xiangtan Xiangyang Xianning Xiantao Xianyang Xiaogan Xiayang
    Xiazhen Xichang Xico Xigang Xilinhot Xincheng Xindi Xinghua Xingning Xingtai Xingyi Xining Xinji
    Xinqiao Xintai Xinxiang Xinyang Xinyi Xinyu Xinyuan Xinzhai Xinzhou Xiulin Xiuying Xiva Xizhi
    Xochimilco Xuancheng Xuanhua Xuchang Xuhui Xunchang Xuyong Xuzhou Yachiyo Yaizu Yakeshi Yakutsk
    Yamagata Yamaguchi Yamato Yamoussoukro Yanbu Yancheng Yangcheng Yangchun Yanghang Yangjiang
    Yangju Yangon Yangpu Yangquan Yangsan Yangshuo Yangzhou Yanji Yantai Yanzhou Yaoundé Yaritagua
    Yaroslavl Yasenevo Yautepec Yawnghwe Yazd Yekaterinburg Yelahanka Yelets Yemen Yenagoa
    Yenangyaung Yeoju Yeosu Yerevan Yevlakh Yevpatoriya Yezhou Yibin Yichang Yichun Yidu Yinchuan
    Yingkou Yingtan Yintai Yiwu Yixing Yizhou Yogyakarta Yokkaichi Yokohama Yokosuka Yola Yonago
    Yongchuan Yongji Yongkang Yongzhou Yonkers Yono Yopal York Yoshkar-Ola Youkaichi Yuanlin Yuci
    Yuepu Yueyang Yulin Yuncheng Yunfu Yunlong Yunusobod Yushu Yuxi Yuyao Yuzhno-Sakhalinsk Zaanstad
    Zabrze Zacatecas Zagazig Zagreb Zahedan Zama Zambia Zamboanga Zango Zanjan Zanzibar Zaoyang
    Zaozhuang Zapopan Zaporizhzhya Zaragoza Zaria Zarichnyi Zarqa Zawiya Zefta Zehlendorf Zeitz
    Zelenograd Zemun Zenica Zerbst Zeulenroda-Triebes Zeytinburnu Zhabei Zhalantun Zhanaozen
    Zhangjiagang Zhangjiajie Zhangjiakou Zhangye Zhangzhou Zhanjiang Zhaodong Zhaoqing Zhaotong
    Zhaoyuan Zhaozhou Zheleznodorozhnyy Zhengding Zhengzhou Zhenjiang Zhenping Zhenzhou Zhezqazghan
    Zhicheng Zhonghe Zhongshan Zhongwei Zhongxiang Zhoucun Zhoukou Zhoushan Zhubei Zhucheng Zhuhai
    Zhuji Zhujing Zhulebino Zhumadian Zhuzhou Zhytomyr Zibo Zigong Ziguinchor Zimbabwe Zinder
    Zipaquirá Zirndorf Zitong Zittau Ziyang Zlatoust Zliten Zoetermeer Zomba Zonguldak Zossen
    Zoucheng Zugló Zumpango Zunyi Zweibrücken Zwickau Zwolle Zyablikovo Zyuzino Zülpich Zürich Århus
    Çanakkale Çankaya Çorlu Çorum Ébolowa Ñuñoa Öhringen Örebro Újpest Übach-Palenberg Überlingen
    Ürümqi Üsküdar
    """
WORLD_PLACES: Final = frozenset(_NAMES.split())
